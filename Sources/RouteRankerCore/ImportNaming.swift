/// Default route names for uploaded files that carry no name of their own (FIT, TCX).
public enum ImportNaming {
    /// `"<sport> <YYYY-MM-DD>"` with the UTC date of `firstTime` (Unix seconds); only the sport
    /// when there is no point to date the route by.
    public static func name(sport: String, firstTime: Double?) -> String {
        guard let firstTime, firstTime.isFinite else { return sport }
        return "\(sport) \(utcDate(firstTime))"
    }

    /// `YYYY-MM-DD` of Unix time `t` in UTC (proleptic Gregorian calendar, days-from-civil inverse).
    public static func utcDate(_ t: Double) -> String {
        let days = Int((t / 86_400).rounded(.down))
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
