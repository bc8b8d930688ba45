#!/usr/bin/env python3
"""The zip and gzip files ZipArchiveTests read, written by Python's zipfile, gzip and zlib (another
implementation than the one under test), and the check of the zips ZipWriter writes.

    fixtures.py make DIR     writes the fixtures into DIR (deterministic: same bytes every run)
    fixtures.py check ZIP    prints JSON: zipfile's testzip() and every entry's name, sizes,
                             method, version, flags and contents (base64; omitted above 64 KiB)

The tests run it at test time into a temporary directory, so no binary file is committed; the
contents the tests expect are described next to each fixture.
"""
import base64
import gzip
import io
import json
import os
import random
import struct
import sys
import zipfile

DATE = (2024, 5, 17, 12, 30, 0)


def text_lines(count):
    """`line 0\\n` … `line {count-1}\\n`: what several.zip's deflated entry holds (the tests rebuild it)."""
    return "".join(f"line {i}\n" for i in range(count)).encode()


def gz(data):
    """A gzip member with no name and mtime 0, so that the bytes are the same on every run."""
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as f:
        f.write(data)
    return out.getvalue()


def add(z, name, data, method):
    info = zipfile.ZipInfo(name, DATE)
    info.compress_type = method
    info.external_attr = (0o100644 << 16) if not name.endswith("/") else ((0o40755 << 16) | 0x10)
    z.writestr(info, data)


def build(entries):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data, method in entries:
            add(z, name, data, method)
    return out.getvalue()


def local_data_offset(blob, name):
    """Where `name`'s data starts: after its local header (30 bytes, the name, the extra field)."""
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        info = z.getinfo(name)
    at = info.header_offset
    assert blob[at:at + 4] == b"PK\x03\x04"
    name_len, extra_len = struct.unpack("<HH", blob[at + 26:at + 30])
    return info, at + 30 + name_len + extra_len


def patch_uncompressed_size(blob, name, size):
    """Makes `name` declare `size` bytes, in its local header and its central-directory record."""
    blob = bytearray(blob)
    with zipfile.ZipFile(io.BytesIO(bytes(blob))) as z:
        info = z.getinfo(name)
    struct.pack_into("<I", blob, info.header_offset + 22, size)
    encoded = name.encode()
    at = blob.find(b"PK\x01\x02")
    while at >= 0:
        name_len = struct.unpack("<H", blob[at + 28:at + 30])[0]
        if blob[at + 46:at + 46 + name_len] == encoded:
            struct.pack_into("<I", blob, at + 24, size)
            return bytes(blob)
        at = blob.find(b"PK\x01\x02", at + 4)
    raise AssertionError(f"{name} not in the central directory")


def legacy_name(blob, name, raw):
    """Renames `name` to the bytes `raw` (same length) and clears its UTF-8 flag (bit 11), in its
    local header and its central-directory record: a name in a legacy code page, as old tools wrote."""
    blob = bytearray(blob)
    encoded = name.encode()
    assert len(raw) == len(encoded)
    for signature, flags_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        at = blob.find(signature)
        while at >= 0:
            if blob[at + name_at:at + name_at + len(encoded)] == encoded:
                flags = struct.unpack("<H", blob[at + flags_at:at + flags_at + 2])[0]
                struct.pack_into("<H", blob, at + flags_at, flags & ~0x800)
                blob[at + name_at:at + name_at + len(encoded)] = raw
                break
            at = blob.find(signature, at + 4)
        else:
            raise AssertionError(f"{name} not found after {signature!r}")
    return bytes(blob)


def make(directory):
    os.makedirs(directory, exist_ok=True)

    def write(name, data):
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)

    gpx = b'<?xml version="1.0"?>\n<gpx version="1.1" creator="fixtures.py">\n' + text_lines(2000) + b"</gpx>\n"
    # several.zip, in this order: a stored file, a directory, a deflated file, a stored .gpx.gz
    # (gzip of `gpx`), a name that climbs out (reported raw: the caller decides), a UTF-8 name, an
    # empty deflated file.
    several = build([
        ("readme.txt", b"hello, zip\n", zipfile.ZIP_STORED),
        ("activities/", b"", zipfile.ZIP_STORED),
        ("activities/1.txt", text_lines(10000), zipfile.ZIP_DEFLATED),
        ("activities/2.gpx.gz", gz(gpx), zipfile.ZIP_STORED),
        ("../evil.txt", b"outside\n", zipfile.ZIP_STORED),
        ("donn\u00e9es/\u00e9t\u00e9.txt", b"utf8\n", zipfile.ZIP_DEFLATED),
        ("empty.txt", b"", zipfile.ZIP_DEFLATED),
    ])
    write("several.zip", several)
    write("2.gpx", gpx)
    # A zip cut in the middle: no end of central directory.
    write("truncated.zip", several[: len(several) // 2])
    # Not a zip at all, and nothing at all.
    write("garbage.bin", random.Random(1).randbytes(4096))
    write("zero-bytes.bin", b"")
    # A name in code page 437 ("caf\x82_.txt", é being 0x82 there), not flagged UTF-8: not valid
    # UTF-8, so reported with a replacement character.
    legacy = build([("caf\u00e9.txt", b"legacy\n", zipfile.ZIP_STORED), ("next.txt", b"next\n", zipfile.ZIP_STORED)])
    write("legacy-name.zip", legacy_name(legacy, "caf\u00e9.txt", b"caf\x82_.txt"))
    # A zip of no entry: only an end-of-central-directory record.
    write("empty.zip", build([]))

    # Zip bombs: 50 MB of zeros deflate to about 50 KB. bomb.zip declares its size honestly;
    # bomb-lying.zip claims 1,000 bytes, so only the cap on what is inflated stops it.
    zeros = bytes(50 * 1024 * 1024)
    bomb = build([("bomb.bin", zeros, zipfile.ZIP_DEFLATED), ("after.txt", b"after\n", zipfile.ZIP_STORED)])
    write("bomb.zip", bomb)
    write("bomb-lying.zip", patch_uncompressed_size(bomb, "bomb.bin", 1000))

    # A stored entry whose data no longer matches its CRC-32, followed by a good one.
    crc = bytearray(build([
        ("bad.txt", b"this text was damaged\n", zipfile.ZIP_STORED),
        ("good.txt", b"good\n", zipfile.ZIP_STORED),
    ]))
    _, at = local_data_offset(bytes(crc), "bad.txt")
    crc[at] ^= 0x20  # 't' -> 'T'
    write("bad-crc.zip", bytes(crc))

    # A deflated entry whose compressed bytes are garbage (inflate fails: libarchive's error is
    # fatal to its reader), followed by a good one.
    corrupt = bytearray(build([
        ("bad.txt", text_lines(5000), zipfile.ZIP_DEFLATED),
        ("good.txt", b"good\n", zipfile.ZIP_STORED),
    ]))
    info, at = local_data_offset(bytes(corrupt), "bad.txt")
    noise = random.Random(2).randbytes(info.compress_size)
    corrupt[at:at + info.compress_size] = b"\xff" + noise[1:]  # 0xff: block type 3, invalid at once
    write("bad-deflate.zip", bytes(corrupt))

    # The second entry's local header lost its signature: libarchive cannot step over a header
    # it cannot read, so the reading ends there.
    header = bytearray(build([(n, n.encode(), zipfile.ZIP_STORED) for n in ("a.txt", "b.txt", "c.txt")]))
    with zipfile.ZipFile(io.BytesIO(bytes(header))) as z:
        header[z.getinfo("b.txt").header_offset] = 0
    write("bad-local-header.zip", bytes(header))

    # gzip streams for Gunzip.
    write("gpx.gz", gz(gpx))
    write("two-members.gz", gz(b"first member\n") + gz(b"second member\n"))
    write("zeros.gz", gz(zeros))
    bad = bytearray(gz(gpx))
    bad[-8] ^= 0xFF  # the trailer's CRC-32
    write("bad-crc.gz", bytes(bad))
    write("truncated.gz", gz(gpx)[:200])


def check(path):
    with zipfile.ZipFile(path) as z:
        result = {"testzip": z.testzip(), "entries": []}
        for info in z.infolist():
            entry = {
                "name": info.filename,
                "size": info.file_size,
                "compressed": info.compress_size,
                "method": info.compress_type,
                "is_dir": info.is_dir(),
                "date_time": list(info.date_time),
                "extract_version": info.extract_version,
                "flag_bits": info.flag_bits,
            }
            if info.file_size <= 64 * 1024:
                entry["data"] = base64.b64encode(z.read(info)).decode()
            result["entries"].append(entry)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        sys.exit(__doc__)
