/// The time forms tracker apps send (API.md, OsmAnd): Unix seconds, Unix milliseconds (any value
/// above 2³¹ − 1, which as seconds would be after 2038), or RFC 3339 text.
public enum TrackerTime {
    /// The largest value read as seconds; anything above is milliseconds.
    public static let maxSeconds = 2_147_483_647.0

    /// Unix epoch seconds for `text`, or nil when it is none of the forms.
    public static func seconds(_ text: some StringProtocol) -> Double? {
        let trimmed = text.utf8.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
        guard !trimmed.isEmpty else { return nil }
        if trimmed.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") }),
            trimmed.first != UInt8(ascii: "."), trimmed.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
            let value = Double(String(decoding: trimmed, as: UTF8.self))
        {
            return number(value)
        }
        let string = String(decoding: trimmed, as: UTF8.self)
        if let t = RFC3339.parse(string) { return t }
        // An unescaped `+` of a zone offset in a URL arrives as a space (`…T10:00:00 01:00`).
        guard string.utf8.count > 19, let space = string.lastIndex(of: " "),
            string.utf8.distance(from: string.startIndex, to: space) >= 19
        else { return nil }
        var repaired = string
        repaired.replaceSubrange(space...space, with: "+")
        return RFC3339.parse(repaired)
    }

    /// A numeric timestamp: seconds, or milliseconds above ``maxSeconds``.
    public static func number(_ value: Double) -> Double {
        value > maxSeconds ? value / 1000 : value
    }
}
