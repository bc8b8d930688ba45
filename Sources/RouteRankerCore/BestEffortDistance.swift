/// A standard distance of API.md's best efforts ("Best efforts, records and the training log"): its
/// name as the API spells it (`5k`, `half_marathon`, …) and its length in metres.
public struct BestEffortDistance: Sendable, Hashable {
    /// The name in paths and bodies, e.g. `1_mile`.
    public let name: String
    /// The length in metres, exactly as API.md's table gives it.
    public let metres: Double

    /// A distance; the standard ones come from ``standard(for:)``.
    public init(name: String, metres: Double) {
        self.name = name
        self.metres = metres
    }

    /// The standard distances of an activity, shortest first (the order of API.md's table and of
    /// the `best_efforts` items); `drive` and `other` have none.
    public static func standard(for activity: Activity) -> [BestEffortDistance] {
        switch activity {
        case .run, .walk: onFoot
        case .ride: riding
        case .drive, .other: []
        }
    }

    /// The standard distance called `name` for `activity`, or nil when the activity has no such
    /// distance (API.md: a `{distance}` the activity does not have is a `404`).
    public static func named(_ name: String, activity: Activity) -> BestEffortDistance? {
        standard(for: activity).first { $0.name == name }
    }

    // Built once: the server asks for these on every finished route and every records read.
    private static let onFoot: [BestEffortDistance] = [
        BestEffortDistance(name: "400m", metres: 400),
        BestEffortDistance(name: "half_mile", metres: 804.672),
        BestEffortDistance(name: "1k", metres: 1000),
        BestEffortDistance(name: "1_mile", metres: 1609.344),
        BestEffortDistance(name: "2_mile", metres: 3218.688),
        BestEffortDistance(name: "5k", metres: 5000),
        BestEffortDistance(name: "10k", metres: 10000),
        BestEffortDistance(name: "15k", metres: 15000),
        BestEffortDistance(name: "10_mile", metres: 16093.44),
        BestEffortDistance(name: "20k", metres: 20000),
        BestEffortDistance(name: "half_marathon", metres: 21097.5),
        BestEffortDistance(name: "30k", metres: 30000),
        BestEffortDistance(name: "marathon", metres: 42195),
        BestEffortDistance(name: "50k", metres: 50000),
        BestEffortDistance(name: "100k", metres: 100000),
    ]

    private static let riding: [BestEffortDistance] = [
        BestEffortDistance(name: "5k", metres: 5000),
        BestEffortDistance(name: "10k", metres: 10000),
        BestEffortDistance(name: "20k", metres: 20000),
        BestEffortDistance(name: "30k", metres: 30000),
        BestEffortDistance(name: "40k", metres: 40000),
        BestEffortDistance(name: "50k", metres: 50000),
        BestEffortDistance(name: "80k", metres: 80000),
        BestEffortDistance(name: "100k", metres: 100000),
        BestEffortDistance(name: "100_mile", metres: 160934.4),
        BestEffortDistance(name: "200k", metres: 200000),
    ]
}
