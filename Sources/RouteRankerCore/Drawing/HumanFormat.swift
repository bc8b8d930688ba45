import Foundation

/// Numbers written for people: `5.01 km`, `1:02:03`, `4:57 /km`, `312 m`.
public enum HumanFormat {
    /// A distance: metres under 1 km (`850 m`), else kilometres with two decimals (`5.01 km`).
    public static func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "–" }
        if abs(metres) < 1000 { return fixed(metres, decimals: 0) + " m" }
        return fixed(metres / 1000, decimals: 2) + " km"
    }

    /// A duration as `h:mm:ss`, or `m:ss` under an hour (`1:02:03`, `4:05`); from 10¹⁵ s on (which
    /// only a damaged record can hold) in whole hours (`2.7777777777777777e+296 h`).
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        // Beyond ~31 million years no clock reading makes sense, and past 9.2e18 s none fits an `Int`.
        guard abs(seconds) < Double(maxClockSeconds) else { return fixed(seconds / 3600, decimals: 0) + " h" }
        let total = abs(seconds).clampedInt(in: 0...maxClockSeconds)
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
        return fixed(metres, decimals: 0) + " m"
    }

    /// A p-value for a chart: `p = 0.032`, `p < 0.001`.
    public static func pValue(_ p: Double) -> String {
        guard p.isFinite else { return "p = –" }
        if p < 0.001 { return "p < 0.001" }
        return "p = " + fixed(p, decimals: 3)
    }

    /// `value` with exactly `decimals` decimals (clamped to 0...15), without locale (`5.01`,
    /// `-0.50`); `–` when not finite. Values whose digits an `Int64` cannot hold (from 10¹⁵
    /// units of the last decimal on) are written as Swift writes a `Double` (`1e+300`): exact
    /// decimals of such a number mean nothing to a reader, and no conversion of it can trap.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        let decimals = min(max(decimals, 0), 15)
        let scale = pow(10, Double(decimals))
        let units = (abs(value) * scale).rounded()
        let sign = value < 0 && units > 0 ? "-" : ""
        guard units < 1e15, let n = Int64(exactly: units), let divisor = Int64(exactly: scale) else {
            return sign + "\(abs(value))"
        }
        let whole = n / divisor
        guard decimals > 0 else { return sign + "\(whole)" }
        let fraction = String(n % divisor)
        return sign + "\(whole)." + String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
    }

    /// Seconds from which ``duration(_:)`` writes hours instead of a clock (10¹⁵ s).
    static let maxClockSeconds = 1_000_000_000_000_000

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
