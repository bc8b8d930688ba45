/// What one file of a chained body says about itself, so a chain can be told apart from its files.
struct FITFileSummary: Sendable, Hashable {
    /// The `type` of the file's first `file_id`; nil when the file has none (a multisport watch's
    /// later files) or its type is invalid.
    private(set) var type: UInt8?
    /// The first `session`'s `sport`, when valid.
    private(set) var sport: UInt8?
    /// Whether the file has a `session`.
    private(set) var hasSession = false
    private var hasFileID = false

    /// Whether the file may hold the activity: it says it is one, or says nothing (no `file_id`).
    var mayBeActivity: Bool { type == nil || type == FITProfile.activityFileType }

    /// Notes a `file_id`: the first one rules the file's type, a later one says nothing.
    mutating func noteFileID(type: UInt8?) {
        guard !hasFileID else { return }
        hasFileID = true
        self.type = type
    }

    /// Notes a `session`: the first one gives the file's sport.
    mutating func noteSession(sport: UInt8?) {
        guard !hasSession else { return }
        hasSession = true
        self.sport = sport
    }
}

/// The state of one pass over a FIT body: file headers, definitions, data messages, CRCs.
struct FITParser {
    let bytes: UnsafeRawBufferPointer
    let partial: Bool
    private(set) var points: [TrackPoint] = []
    /// One per chained file whose header was read, in body order.
    private(set) var files: [FITFileSummary] = []
    private(set) var defect: FormatError?

    private var definitions = [FITDefinition?](repeating: nil, count: 16)
    private var lastTimestamp: UInt32?
    private var dataEnd = 0

    init(bytes: UnsafeRawBufferPointer, partial: Bool) {
        self.bytes = bytes
        self.partial = partial
    }

    /// Reads every chained file; in partial mode a defect after the first header ends the pass.
    mutating func run() throws {
        var start = 0
        repeat {
            do {
                start = try readFile(at: start)
            } catch let e as FormatError where partial && e.field == "body" && !files.isEmpty {
                defect = e
                return
            }
        } while start < bytes.count
    }

    /// Reads the file starting at `start`; returns where the next one would start.
    private mutating func readFile(at start: Int) throws -> Int {
        let left = bytes.count - start
        let what = start == 0 ? "the body is not a FIT file" : "the bytes after a FIT file are not another FIT file"
        guard left >= 12, bytes[start] == 12 || bytes[start] == 14,
            bytes[(start + 8)..<(start + 12)].elementsEqual(".FIT".utf8)
        else { throw FormatError.body("\(what) (no 12 or 14 byte header with \".FIT\")", offset: start) }
        let headerSize = Int(bytes[start])
        guard left >= headerSize else { throw FormatError.body("the FIT file header is truncated", offset: start) }
        if headerSize == 14, !partial {
            let stored = uint16(at: start + 12)
            let computed = FITCRC.update(0, UnsafeRawBufferPointer(rebasing: bytes[start..<(start + 12)]))
            guard stored == 0 || stored == computed else {
                throw FormatError.body("the FIT file header's CRC does not match", offset: start + 12)
            }
        }
        let dataSize = Int(uint16(at: start + 4)) | Int(uint16(at: start + 6)) << 16
        let dataStart = start + headerSize
        dataEnd = dataStart + dataSize
        files.append(FITFileSummary())
        definitions = [FITDefinition?](repeating: nil, count: 16)
        lastTimestamp = nil
        if !partial {
            // Whole and intact before anything is decoded, so a damaged file reports its real cause.
            guard dataEnd + 2 <= bytes.count else {
                throw FormatError.body(
                    "the FIT file is truncated: its header announces \(dataSize) bytes of data and a CRC, "
                        + "\(bytes.count - dataStart) bytes follow", offset: bytes.count)
            }
            let computed = FITCRC.update(0, UnsafeRawBufferPointer(rebasing: bytes[start..<dataEnd]))
            guard uint16(at: dataEnd) == computed else {
                throw FormatError.body("the FIT file's data CRC does not match", offset: dataEnd)
            }
        }
        var at = dataStart
        while at < dataEnd { at = try readRecord(at: at) }
        guard dataEnd + 2 <= bytes.count else {
            throw FormatError.body("the FIT file is truncated before its CRC", offset: min(dataEnd, bytes.count))
        }
        return dataEnd + 2
    }

    /// Reads the record at `at`; returns where the next one starts (always after `at`).
    private mutating func readRecord(at: Int) throws -> Int {
        try need(at, 1, message: at)
        let header = bytes[at]
        if header & 0x80 != 0 {
            return try readData(at: at, local: Int(header >> 5 & 0x03), timeOffset: UInt32(header & 0x1F))
        }
        if header & 0x40 != 0 { return try readDefinition(at: at, developer: header & 0x20 != 0) }
        return try readData(at: at, local: Int(header & 0x0F), timeOffset: nil)
    }

    private mutating func readDefinition(at: Int, developer: Bool) throws -> Int {
        try need(at, 6, message: at)
        let local = Int(bytes[at] & 0x0F)
        guard bytes[at + 2] <= 1 else {
            throw FormatError.body("a FIT definition names an unknown architecture", offset: at + 2)
        }
        let bigEndian = bytes[at + 2] == 1
        let global = bigEndian ? UInt16(bytes[at + 3]) << 8 | UInt16(bytes[at + 4]) : uint16(at: at + 3)
        let count = Int(bytes[at + 5])
        var next = at + 6
        try need(next, 3 * count, message: at)
        var slots: [FITFieldSlot] = []
        var size = 0
        for i in 0..<count {
            let field = next + 3 * i
            let slot = FITFieldSlot(
                number: bytes[field], offset: size, size: Int(bytes[field + 1]), baseType: bytes[field + 2])
            if FITProfile.decodes(global: global, field: slot.number) { slots.append(slot) }
            size += slot.size
        }
        next += 3 * count
        if developer {
            try need(next, 1, message: at)
            let devCount = Int(bytes[next])
            next += 1
            try need(next, 3 * devCount, message: at)
            for i in 0..<devCount { size += Int(bytes[next + 3 * i + 1]) }
            next += 3 * devCount
        }
        definitions[local] = FITDefinition(global: global, bigEndian: bigEndian, slots: slots, size: size)
        return next
    }

    private mutating func readData(at: Int, local: Int, timeOffset: UInt32?) throws -> Int {
        guard let def = definitions[local] else {
            throw FormatError.body("a FIT data message of local type \(local) comes before its definition", offset: at)
        }
        try need(at + 1, def.size, message: at)
        let body = at + 1
        func value(_ number: UInt8) -> Int64? {
            def.slot(number).flatMap { FITValue.integer(bytes, at: body, slot: $0, bigEndian: def.bigEndian) }
        }
        var time = value(FITProfile.timestampField).flatMap { UInt32(exactly: $0) }
        if time == nil, let offset = timeOffset, let last = lastTimestamp {
            // A compressed header carries the low 5 bits; a smaller value than the last one's rolled over.
            time = (last & ~0x1F) &+ offset &+ (offset < last & 0x1F ? 0x20 : 0)
        }
        if let time { lastTimestamp = time }
        // A file's header is read before any of its records, so `files` is not empty here.
        switch def.global {
        case FITProfile.fileIDMessage:
            files[files.count - 1].noteFileID(type: value(0).flatMap { UInt8(exactly: $0) })
        case FITProfile.sessionMessage:
            files[files.count - 1].noteSession(sport: value(5).flatMap { UInt8(exactly: $0) })
        case FITProfile.recordMessage:
            guard let lat = value(0), let lon = value(1) else { break }
            let ele = (value(78) ?? value(2)).map { Double($0) / 5 - 500 }
            do {
                points.append(
                    try PointValidation.point(
                        lat: Double(lat) * 180 / 2_147_483_648, lon: Double(lon) * 180 / 2_147_483_648,
                        t: time.map { Double($0) + FITReader.epoch }, ele: ele, acc: value(31).map(Double.init),
                        index: points.count, timeKey: "timestamp"))
            } catch var e as FormatError {
                e.offset = at
                throw e
            }
        default: break
        }
        return body + def.size
    }

    /// Throws unless `count` bytes from `from` lie within the current file's data and the body;
    /// `message` is where the record holding them starts, the offset reported.
    private func need(_ from: Int, _ count: Int, message: Int) throws {
        guard from + count <= bytes.count else {
            throw FormatError.body("the FIT file is truncated inside a message", offset: message)
        }
        guard from + count <= dataEnd else {
            throw FormatError.body("a FIT message runs past the end of the file's data", offset: message)
        }
    }

    private func uint16(at i: Int) -> UInt16 {
        UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
    }
}
