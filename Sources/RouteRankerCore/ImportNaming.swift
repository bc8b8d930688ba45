/// Default route names for uploaded files that carry no name of their own (FIT, TCX).
public enum ImportNaming {
    /// `"<sport> <YYYY-MM-DD>"` with the UTC date of `firstTime` (Unix seconds); only the sport
    /// when there is no point to date the route by.
    public static func name(sport: String, firstTime: Double?) -> String {
        guard let firstTime, firstTime.isFinite else { return sport }
        return "\(sport) \(utcDate(firstTime))"
    }

    /// `YYYY-MM-DD` of Unix time `t` in UTC: the date part of its RFC 3339 form.
    public static func utcDate(_ t: Double) -> String {
        String(RFC3339.format((t / 86_400).rounded(.down) * 86_400).prefix(10))
    }
}
