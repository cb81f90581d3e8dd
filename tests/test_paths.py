"""onirim.paths: one check for every output path, with the same words everywhere."""
from __future__ import annotations

import os

import pytest

from onirim.paths import OutputPathError, clip, output_file, output_folder


def _err(fn, *args, **kw):
    with pytest.raises(OutputPathError) as e:
        fn(*args, **kw)
    assert str(e.value).startswith(f"{e.value.field}: ")
    return str(e.value)


@pytest.mark.parametrize("fn", [output_file, output_folder])
def test_empty_path_is_refused(fn):
    for bad in ("", "   "):
        assert _err(fn, bad, "--db") == "--db: empty path: give a file or folder name"
    assert "NUL" in _err(fn, "a\x00b", "--db")
    assert "expected a path" in _err(fn, 3, "--db")


def test_file_option_naming_a_folder(tmp_path):
    assert _err(output_file, str(tmp_path), "--db") == \
        f"--db: {str(tmp_path)!r} is a folder, not a file"
    assert "names a folder" in _err(output_file, str(tmp_path / "new") + "/", "--tree")


def test_folder_option_naming_a_file(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text("keep")
    assert _err(output_folder, str(f), "--out") == f"--out: {str(f)!r} is a file, not a folder"
    assert f.read_text() == "keep"


def test_missing_folders_are_created_alike(tmp_path):
    p = tmp_path / "a" / "b" / "r.sqlite"
    assert output_file(str(p), "--db") == str(p)
    assert (tmp_path / "a" / "b").is_dir() and not p.exists()
    d = tmp_path / "c" / "d"
    assert output_folder(str(d), "--out") == str(d)
    assert d.is_dir()
    assert list(d.iterdir()) == []            # the write check leaves nothing behind


def test_missing_folders_refused_without_create(tmp_path):
    p = tmp_path / "a" / "r.sqlite"
    assert _err(output_file, str(p), "--db", create=False) == \
        f"--db: folder {str(tmp_path / 'a')!r} does not exist"
    assert _err(output_folder, str(tmp_path / "x"), "--out", create=False) == \
        f"--out: folder {str(tmp_path / 'x')!r} does not exist"
    assert not (tmp_path / "a").exists()


def test_a_file_in_the_way_of_a_folder(tmp_path):
    f = tmp_path / "f"
    f.write_text("")
    msg = _err(output_file, str(f / "sub" / "r.sqlite"), "--db")
    assert msg == f"--db: {str(f)!r} is a file, not a folder"


def test_existing_file_is_accepted_and_left_alone(tmp_path):
    p = tmp_path / "r.sqlite"
    p.write_bytes(b"data")
    assert output_file(str(p), "--db") == str(p)
    assert p.read_bytes() == b"data"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux)")
def test_not_writable():
    # /proc is read-only even for root, where permission bits would say yes
    assert _err(output_file, "/proc/onirim-test.sqlite", "--db").startswith(
        "--db: cannot write in folder '/proc'")
    assert "is not writable" in _err(output_file, "/proc/version", "--db") or \
        "not a regular file" in _err(output_file, "/proc/version", "--db")
    assert _err(output_folder, "/proc", "--out").startswith("--out: cannot write in folder")


def test_long_paths_are_cut_in_messages():
    long = "/proc/" + "x" * 5000 + "/r.sqlite"
    msg = _err(output_file, long, "--db")
    assert "characters)" in msg and len(msg) < 300
    assert clip("y" * 1000).endswith("(1000 characters)") and len(clip("y" * 1000)) < 70
    assert clip("short") == "short"


def test_cli_prints_one_line(capsys):
    """An OutputPathError reaching the command line is one line, exit 2."""
    from onirim import cli

    assert cli.fail(str(OutputPathError("--db", "empty path: give a file or folder name"))) == 2
    err = capsys.readouterr().err
    assert err == "onirim: error: --db: empty path: give a file or folder name\n"
