/// ISO 8601 / RFC 3339 timestamps ⇄ Unix epoch seconds, without Foundation's formatters
/// (they are slow, locale-sensitive and round fractions to milliseconds or worse).
public enum RFC3339 {
    /// `2026-11-21T23:31:59.123Z`: at least milliseconds, and every further digit of `t`'s
    /// shortest representation, so reading the text back gives the same `Double`.
    public static func format(_ t: Double) -> String {
        var out = ""
        append(t, to: &out)
        return out
    }

    /// Appends ``format(_:)`` of `t` to `out` (the hot path of every GPX and GeoJSON download).
    public static func append(_ t: Double, to out: inout String) {
        // Years 1970–9999 with a positional shortest text (no exponent): the date from integer
        // arithmetic, the fraction's digits copied from Swift's shortest round-trip `description`.
        if t.sign == .plus, t < lastSecond {
            var text = t.description
            let written = text.withUTF8 { digits -> Bool in
                guard let point = digits.firstIndex(of: UInt8(ascii: ".")),
                    !digits.contains(UInt8(ascii: "e"))
                else { return false }
                var seconds: Int64 = 0
                for digit in digits[..<point] { seconds = seconds * 10 + Int64(digit &- 48) }
                // `description` writes whole seconds as `n.0`, which pads to `.000` like any fraction.
                appendDateTime(seconds, fraction: digits[(point + 1)...], to: &out)
                return true
            }
            if written { return }
        }
        out += general(t)
    }

    /// Appends ``format(_:)`` of `t` to `out` as UTF-8 bytes (the hot path of every GPX download):
    /// the seconds and the fraction's digits from ``DecimalNumbers/FixedPoint`` where it applies,
    /// which is `description`'s shortest text without making a string of it.
    public static func append(_ t: Double, to out: inout [UInt8]) {
        guard t.sign == .plus, t < lastSecond, let fixed = DecimalNumbers.FixedPoint(t) else {
            return out.append(contentsOf: format(t).utf8)
        }
        var scale: UInt64 = 1
        for _ in 0..<fixed.fractionDigits { scale *= 10 }
        let seconds = Int64(fixed.digits / scale)
        var rest = fixed.digits % scale
        // At most 15 fraction digits (`FixedPoint`).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { scratch in
            let fraction = UnsafeMutableBufferPointer(rebasing: scratch[..<fixed.fractionDigits])
            for i in stride(from: fixed.fractionDigits - 1, through: 0, by: -1) {
                fraction[i] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            let count = dateTimeLength(fraction: fraction.count)
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: count))
            out.withUnsafeMutableBufferPointer { buffer in
                _ = writeDateTime(
                    seconds, fraction: UnsafeBufferPointer(fraction),
                    into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
            }
        }
    }

    /// `2026-11-21T23:31:59.123Z`: exactly milliseconds, truncated (the API's timestamps). The
    /// time is first rounded to the microsecond, so that `…0.123` stored as `…0.12299999` stays `.123`.
    public static func formatMilliseconds(_ t: Double) -> String {
        let ms = ((t * 1_000_000).rounded() / 1000).rounded(.down)
        // Within ±10¹⁸ ms (31 million years; only a damaged record's time is beyond), NaN as 0.
        let millis = ms.clampedInt64(in: -1_000_000_000_000_000_000...1_000_000_000_000_000_000)
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = millis - seconds * 1000
        guard seconds >= 0, Double(seconds) < lastSecond else {
            return general(Double(seconds)).dropLast(4) + pad(fraction, 3) + "Z"
        }
        let digits: [UInt8] = [
            UInt8(48 + fraction / 100), UInt8(48 + fraction / 10 % 10), UInt8(48 + fraction % 10),
        ]
        var out = ""
        appendDateTime(seconds, fraction: digits[...], to: &out)
        return out
    }

    /// The first second the fast paths do not write (year 10000).
    private static let lastSecond: Double = 253_402_300_800

    /// Appends `YYYY-MM-DDThh:mm:ss.` `fraction` (padded with zeros to at least three digits) `Z`,
    /// for `seconds` since the epoch in 0 ..< `lastSecond`.
    private static func appendDateTime(
        _ seconds: Int64, fraction: some Collection<UInt8>, to out: inout String
    ) {
        out += String(unsafeUninitializedCapacity: dateTimeLength(fraction: fraction.count)) { buffer in
            writeDateTime(seconds, fraction: fraction, into: buffer)
        }
    }

    /// How many bytes `writeDateTime` writes for a fraction of `fraction` digits.
    private static func dateTimeLength(fraction: Int) -> Int { 21 + max(3, fraction) }

    /// Writes what `appendDateTime` appends at the start of `buffer` (at least
    /// `dateTimeLength` bytes); returns how many bytes it wrote.
    private static func writeDateTime(
        _ seconds: Int64, fraction: some Collection<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let days = seconds / 86_400
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        var i = 0
        func put(_ value: Int64, _ width: Int) {
            var v = value
            for k in stride(from: width - 1, through: 0, by: -1) {
                buffer[i + k] = UInt8(48 + v % 10)
                v /= 10
            }
            i += width
        }
        // Bytes, not `Character`s: reading a character's ASCII value was a tenth of a GPX download.
        func put(_ byte: UInt8) {
            buffer[i] = byte
            i += 1
        }
        put(y, 4); put(UInt8(ascii: "-")); put(m, 2); put(UInt8(ascii: "-")); put(d, 2); put(UInt8(ascii: "T"))
        put(secondOfDay / 3600, 2); put(UInt8(ascii: ":")); put(secondOfDay / 60 % 60, 2); put(UInt8(ascii: ":"))
        put(secondOfDay % 60, 2)
        put(UInt8(ascii: "."))
        for digit in fraction { put(digit) }
        for _ in fraction.count..<max(3, fraction.count) { put(UInt8(ascii: "0")) }
        put(UInt8(ascii: "Z"))
        return i
    }

    /// ``format(_:)`` for any finite `t`, negative times and years past 9999 included.
    /// Times beyond ±10¹⁵ s (31 million years), which only a damaged record holds, are written
    /// as that bound, and NaN as the epoch: no integer conversion of them can trap.
    static func general(_ t: Double) -> String {
        let t = t.isNaN ? 0 : min(max(t, -1e15), 1e15)
        let text = DecimalNumbers.format(t)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard var seconds = Int64(parts[0]) else { return "1970-01-01T00:00:00.000Z" }
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        if t < 0 && !fraction.isEmpty {
            // −1.25 is 1.25 s before the epoch: second −2, fraction .75. Only for completeness.
            let f = 1 - (Double("0." + fraction) ?? 0)
            seconds -= 1
            fraction = String(DecimalNumbers.format(f).dropFirst(2))
        }
        while fraction.count < 3 { fraction += "0" }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secOfDay = seconds - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secOfDay / 3600, 2)):\(pad(secOfDay / 60 % 60, 2))"
            + ":\(pad(secOfDay % 60, 2)).\(fraction)Z"
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]` (`T` may be `t` or a space,
    /// `Z` may be `z`); no zone means UTC. Surrounding whitespace is ignored. Nil if malformed.
    public static func parse(_ text: some StringProtocol) -> Double? {
        let s = Array(text.utf8.drop { isSpace($0) }.reversed().drop { isSpace($0) }.reversed())
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= s.count else { return nil }
            var v: Int64 = 0
            for b in s[from..<from + count] {
                guard b >= 48 && b <= 57 else { return nil }
                v = v * 10 + Int64(b - 48)
            }
            return v
        }
        guard s.count >= 19, let year = number(0, 4), s[4] == UInt8(ascii: "-"), let month = number(5, 2),
            s[7] == UInt8(ascii: "-"), let day = number(8, 2),
            [UInt8(ascii: "T"), UInt8(ascii: "t"), 32].contains(s[10]),
            let hour = number(11, 2), s[13] == UInt8(ascii: ":"), let minute = number(14, 2),
            s[16] == UInt8(ascii: ":"), let second = number(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23,
            minute <= 59, second <= 60
        else { return nil }
        var i = 19
        var fraction = ""
        if i < s.count && (s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",")) {
            i += 1
            while i < s.count && s[i] >= 48 && s[i] <= 57 {
                fraction.append(Character(UnicodeScalar(s[i])))
                i += 1
            }
            guard !fraction.isEmpty else { return nil }
        }
        var offset: Int64 = 0
        if i < s.count {
            switch s[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign: Int64 = s[i] == UInt8(ascii: "-") ? -1 : 1
                guard let oh = number(i + 1, 2), oh <= 23 else { return nil }
                i += 3
                var om: Int64 = 0
                if i < s.count {
                    if s[i] == UInt8(ascii: ":") { i += 1 }
                    guard let m = number(i, 2), m <= 59 else { return nil }
                    om = m
                    i += 2
                }
                offset = sign * (oh * 3600 + om * 60)
            default: return nil
            }
        }
        guard i == s.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        if fraction.isEmpty { return Double(seconds) }
        // Parsing "seconds.fraction" as one decimal rounds once, so the text of format(_:) reads
        // back as the very same Double.
        if seconds >= 0 { return Double("\(seconds).\(fraction)") }
        return Double(seconds) + Double("0.\(fraction)")!
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of ``days(year:month:day:)`` (`civil_from_days`).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
