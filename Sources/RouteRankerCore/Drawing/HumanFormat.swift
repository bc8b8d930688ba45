import Foundation

/// Numbers written for people: `5.01 km`, `1:02:03`, `4:57 /km`, `312 m`.
public enum HumanFormat {
    /// A distance: metres under 1 km (`850 m`), else kilometres with two decimals (`5.01 km`).
    public static func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "–" }
        if abs(metres) < 1000 { return "\(Int(metres.rounded())) m" }
        return fixed(metres / 1000, decimals: 2) + " km"
    }

    /// A duration as `h:mm:ss`, or `m:ss` under an hour (`1:02:03`, `4:05`).
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        let total = Int(abs(seconds).rounded())
        let sign = seconds < 0 && total > 0 ? "-" : ""
        let h = total / 3600
        let m = total % 3600 / 60
        let s = total % 60
        if h > 0 { return sign + "\(h):\(twoDigits(m)):\(twoDigits(s))" }
        return sign + "\(m):\(twoDigits(s))"
    }

    /// A pace in seconds per km as `m:ss /km` (`4:57 /km`); `–` when there is none.
    public static func pace(_ secondsPerKm: Double?) -> String {
        guard let secondsPerKm, secondsPerKm.isFinite else { return "–" }
        return duration(secondsPerKm) + " /km"
    }

    /// A speed in m/s as km/h with one decimal (`12.3 km/h`).
    public static func speed(_ metresPerSecond: Double) -> String {
        guard metresPerSecond.isFinite else { return "–" }
        return fixed(metresPerSecond * 3.6, decimals: 1) + " km/h"
    }

    /// Metres of climb, whole (`124 m`); `–` when unknown.
    public static func elevation(_ metres: Double?) -> String {
        guard let metres, metres.isFinite else { return "–" }
        return "\(Int(metres.rounded())) m"
    }

    /// A p-value for a chart: `p = 0.032`, `p < 0.001`.
    public static func pValue(_ p: Double) -> String {
        guard p.isFinite else { return "p = –" }
        if p < 0.001 { return "p < 0.001" }
        return "p = " + fixed(p, decimals: 3)
    }

    /// `value` with exactly `decimals` decimals, without locale (`5.01`, `-0.50`).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let scale = pow(10, Double(decimals))
        let units = (abs(value) * scale).rounded()
        let sign = value < 0 && units > 0 ? "-" : ""
        guard units < 1e15 else { return sign + "\(abs(value))" }
        let n = Int64(units)
        let divisor = Int64(scale)
        let whole = n / divisor
        guard decimals > 0 else { return sign + "\(whole)" }
        let fraction = String(n % divisor)
        return sign + "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
