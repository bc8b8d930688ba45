"""The small independent FIT writer behind scripts/make-fit-references' corner-case files.

It follows the FIT protocol document only (header, definition and data records, the CRC),
shares no code with RouteRanker's reader, and returns with each file the points it put in.
"""
import struct

FIT_EPOCH = 631065600

CRC_TABLE = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]


def crc16(data, crc=0):
    """The FIT protocol document's nibble-table CRC."""
    for byte in data:
        tmp = CRC_TABLE[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ CRC_TABLE[byte & 0xF]
        tmp = CRC_TABLE[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ CRC_TABLE[(byte >> 4) & 0xF]
    return crc


# base type byte -> struct code
BASE = {0x00: "B", 0x02: "B", 0x84: "H", 0x85: "i", 0x86: "I", 0x8C: "I", 0x0D: "B", 0x07: "s"}


class FitWriter:
    def __init__(self):
        self.body = bytearray()
        self.defs = {}
        self.offsets = []  # where each record starts, within the body

    def define(self, local, global_num, fields, big=False, developer=()):
        """fields: [(number, size, base type)]; developer: [(number, size, developer data index)]."""
        self.offsets.append(len(self.body))
        self.body += bytes([0x40 | (0x20 if developer else 0) | local, 0, 1 if big else 0])
        self.body += struct.pack(">H" if big else "<H", global_num)
        self.body += bytes([len(fields)])
        for num, size, base in fields:
            self.body += bytes([num, size, base])
        if developer:
            self.body += bytes([len(developer)])
            for num, size, index in developer:
                self.body += bytes([num, size, index])
        self.defs[local] = (fields, big, developer)

    def developer_bytes(self, local, raw):
        """The developer fields' bytes of the data message just written."""
        self.body += raw

    def data(self, local, values, compressed_offset=None):
        """values: one per field, already raw (None writes the base type's invalid value)."""
        fields, big, _ = self.defs[local]
        self.offsets.append(len(self.body))
        if compressed_offset is None:
            self.body.append(local)
        else:
            self.body.append(0x80 | local << 5 | compressed_offset)
        for (num, size, base), v in zip(fields, values):
            code = BASE[base]
            if code == "s":
                self.body += (v or b"").ljust(size, b"\0")[:size]
                continue
            width = struct.calcsize(code)
            if v is None:
                v = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFFFFFF, "i": 0x7FFFFFFF}[code]
                if base == 0x8C:
                    v = 0
            raw = struct.pack((">" if big else "<") + code, v)
            self.body += raw + bytes(size - width)

    def file(self, header=14, header_crc=True):
        head = bytearray([header, 0x20]) + struct.pack("<HI", 2195, len(self.body)) + b".FIT"
        if header == 14:
            head += struct.pack("<H", crc16(head) if header_crc else 0)
        whole = bytes(head) + bytes(self.body)
        return whole + struct.pack("<H", crc16(whole))


def semis(deg):
    return round(deg * 2**31 / 180)


RECORD = 20
TS, LAT, LON, ALT, ACC, EALT = (253, 0x86, 4), (0, 0x85, 4), (1, 0x85, 4), (2, 0x84, 2), (31, 0x02, 1), (78, 0x86, 4)


def field(spec, size=None):
    num, base, width = spec
    return (num, size or width, base)


def file_id(w, local=0, type_=4, big=False):
    # type, manufacturer, product, serial number, time created
    w.define(local, 0, [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)], big)
    w.data(local, [type_, 255, 1, 12345, 1000000000])


def session(w, local, sport):
    w.define(local, 18, [(253, 4, 0x86), (5, 1, 0x00), (6, 1, 0x00)])
    w.data(local, [1000000100, sport, 0])


def settings_file(stray_activity=False):
    """A settings file (a user profile); with `stray_activity`, a second file_id saying activity
    and a running session follow, which must not make it one."""
    w = FitWriter()
    file_id(w, type_=2)
    w.define(1, 3, [(0, 16, 0x07)])
    w.data(1, [b"Ada"])
    if stray_activity:
        file_id(w, local=2)
        session(w, 3, 1)
    return w.file()


def small_activity():
    """A cycling activity of five positioned records, and the points it holds."""
    w = FitWriter()
    file_id(w)
    w.define(1, RECORD, [field(TS), field(LAT), field(LON), field(ALT)])
    pts = []
    for i in range(5):
        t, la, lo, alt = 1000000200 + 3 * i, semis(46.2 + i * 2e-4), semis(6.1 + i * 1e-4), 2700 + i
        w.data(1, [t, la, lo, alt])
        pts.append((t, la, lo, alt, None, None))
    session(w, 2, 2)
    return w.file(), pts


def synthetic():
    files = {}
    expected = {}

    # Big-endian definitions, a 14-byte header whose CRC is 0, an unknown manufacturer message.
    w = FitWriter()
    file_id(w, big=True)
    w.define(1, RECORD, [field(TS), field(LAT), field(LON), field(ALT), field(ACC)], big=True)
    pts = []
    for i in range(6):
        t, la, lo, alt = 1000000000 + i, semis(47.5 + i * 1e-4), semis(-122.3 - i * 1e-4), 2500 + 5 * i
        w.data(1, [t, la, lo, alt, 3 + i])
        pts.append((t, la, lo, alt, None, 3 + i))
    w.define(2, 0xFF10, [(0, 3, 0x0D), (1, 2, 0x84)], big=True)
    w.data(2, [7, 9])
    session(w, 3, 1)
    files["big-endian.fit"] = w.file(header=14, header_crc=False)
    expected["big-endian.fit"] = pts

    # Every invalid value, sizes unlike the profile's, an unknown field.
    w = FitWriter()
    file_id(w)
    w.define(0, RECORD, [field(TS), field(LAT), field(LON), field(ALT), field(EALT), field(ACC), (200, 7, 0x0D)])
    rows = [
        (1000000000, semis(10), semis(20), 3000, 3100, 4),      # enhanced altitude wins
        (1000000001, None, semis(20), 3000, None, 4),           # no latitude: skipped
        (1000000002, semis(10), None, 3000, None, 4),           # no longitude: skipped
        (1000000003, semis(10.001), semis(20.001), None, None, None),  # no ele, no acc
        (1000000004, semis(10.002), semis(20.002), 2400, None, None),  # altitude alone
        (1000000005, semis(-89.9), semis(179.9), None, 0, 0),  # enhanced 0 is -500 m; acc 0
    ]
    pts = []
    for t, la, lo, alt, ealt, acc in rows:
        w.data(0, [t, la, lo, alt, ealt, acc, None])
        if la is not None and lo is not None:
            pts.append((t, la, lo, alt, ealt, acc))
    # Altitude written as a uint32 of 4 bytes, position fields with trailing padding.
    w.define(0, RECORD, [field(TS), field(LAT, 8), field(LON, 8), (2, 4, 0x86), (31, 2, 0x02)])
    w.data(0, [1000000006, semis(10.003), semis(20.003), 3005, 7])
    pts.append((1000000006, semis(10.003), semis(20.003), 3005, None, 7))
    session(w, 1, 17)
    files["invalid-values.fit"] = w.file(header=12)
    expected["invalid-values.fit"] = pts

    # Local type 0 redefined mid-file: record, then another message, then record again laid out
    # differently.
    w = FitWriter()
    file_id(w)
    w.define(0, RECORD, [field(LAT), field(LON), field(TS)])
    w.data(0, [semis(1), semis(2), 1000000000])
    w.define(0, 21, [(253, 4, 0x86), (0, 1, 0x00), (1, 1, 0x00)])
    w.data(0, [1000000001, 0, 0])
    w.define(0, RECORD, [field(EALT), field(TS), field(LON), field(LAT)])
    w.data(0, [2600, 1000000002, semis(2.001), semis(1.001)])
    session(w, 1, 2)
    files["redefined.fit"] = w.file()
    expected["redefined.fit"] = [(1000000000, semis(1), semis(2), None, None, None),
                                 (1000000002, semis(1.001), semis(2.001), None, 2600, None)]

    # Compressed timestamps: the reference time comes from an event's timestamp field; the
    # 5-bit offsets roll over twice.
    w = FitWriter()
    file_id(w)
    w.define(1, 21, [(253, 4, 0x86), (0, 1, 0x00)])
    base = 1000000000 - (1000000000 % 32) + 28
    w.data(1, [base, 0])
    w.define(2, RECORD, [field(LAT), field(LON), field(ALT)])
    pts = []
    t = base
    for i, step in enumerate([1, 2, 3, 10, 30, 31, 1]):
        t += step
        w.data(2, [semis(60 + i * 1e-3), semis(25 + i * 1e-3), 2550 + i], compressed_offset=t & 0x1F)
        pts.append((t, semis(60 + i * 1e-3), semis(25 + i * 1e-3), 2550 + i, None, None))
    session(w, 3, 24)
    files["compressed-timestamps.fit"] = w.file()
    expected["compressed-timestamps.fit"] = pts

    # Developer fields after the profile fields of positioned records, described as Connect IQ
    # apps do (developer_data_id, field_description).
    w = FitWriter()
    file_id(w)
    w.define(1, 207, [(3, 1, 0x02), (1, 16, 0x0D)])
    w.data(1, [0, 0xAB])
    w.define(2, 206, [(0, 1, 0x02), (1, 1, 0x02), (2, 1, 0x02), (3, 8, 0x07)])
    w.data(2, [0, 0, 0x84, b"power"])
    w.data(2, [0, 1, 0x86, b"counter"])
    w.define(3, RECORD, [field(TS), field(LAT), field(LON)], developer=[(0, 2, 0), (1, 4, 0)])
    pts = []
    for i in range(4):
        t, la, lo = 1000000000 + 2 * i, semis(-33.9 + i * 1e-4), semis(151.2 + i * 1e-4)
        w.data(3, [t, la, lo])
        w.developer_bytes(3, struct.pack("<HI", 200 + i, 7 * i))
        pts.append((t, la, lo, None, None, None))
    session(w, 4, 11)
    files["developer-fields.fit"] = w.file()
    expected["developer-fields.fit"] = pts

    # A positioned record without a timestamp: a point error naming its index and offset.
    w = FitWriter()
    file_id(w)
    w.define(1, RECORD, [field(TS), field(LAT), field(LON)])
    w.data(1, [1000000000, semis(1), semis(2)])
    w.data(1, [None, semis(1.001), semis(2.001)])
    files["record-without-time.fit"] = w.file()
    expected["record-without-time.fit"] = ("points", 14 + w.offsets[-1], 1)

    # A settings file: valid, not an activity.
    files["settings.fit"] = settings_file()
    expected["settings.fit"] = []

    # Chained bodies of an activity and a settings file from another device (python-fitparse's
    # activity-settings.fit has this shape): the chain is an activity, its points are the
    # activity's. The settings file chained before the activity holds a second file_id saying
    # activity and a running session: the file's first file_id rules its type, so neither counts,
    # alone it is refused, and the route is named from the activity file's session (cycling).
    activity, pts = small_activity()
    files["chained-activity-settings.fit"] = activity + settings_file()
    expected["chained-activity-settings.fit"] = pts
    files["settings-with-activity-file-id.fit"] = settings_file(stray_activity=True)
    expected["settings-with-activity-file-id.fit"] = []
    files["chained-settings-activity.fit"] = settings_file(stray_activity=True) + activity
    expected["chained-settings-activity.fit"] = pts

    # A data message of local type 3, never defined.
    w = FitWriter()
    file_id(w)
    w.body += bytes([0x03, 0, 0, 0])
    w.offsets.append(len(w.body) - 4)
    files["data-before-definition.fit"] = w.file()
    expected["data-before-definition.fit"] = ("body", 14 + w.offsets[-1])

    return files, expected


def to_point(t, la, lo, alt, ealt, acc):
    p = {"lat": la * 180 / 2**31, "lon": lo * 180 / 2**31, "t": t + FIT_EPOCH}
    raw = ealt if ealt is not None else alt
    if raw is not None:
        p["ele"] = raw / 5 - 500
    if acc is not None:
        p["acc"] = float(acc)
    return p
