/// The few facts of the FIT profile (Garmin FIT SDK 21.x) this reader needs.
public enum FITProfile {
    static let fileIDMessage: UInt16 = 0
    static let sessionMessage: UInt16 = 18
    static let recordMessage: UInt16 = 20
    static let timestampField: UInt8 = 253
    /// `file_id.type` of an activity file.
    public static let activityFileType: UInt8 = 4

    /// Whether the reader decodes `field` of message `global` (any message's timestamp feeds the
    /// compressed-timestamp headers that follow).
    static func decodes(global: UInt16, field: UInt8) -> Bool {
        switch global {
        case recordMessage: [timestampField, 0, 1, 2, 31, 78].contains(field)
        case fileIDMessage: field == 0
        case sessionMessage: field == 5 || field == timestampField
        default: field == timestampField
        }
    }

    /// API.md's mapping: `running` → run, `cycling` → ride, `walking`/`hiking` → walk,
    /// `driving` → drive, anything else (or no session) → other.
    public static func activity(sport: UInt8?) -> Activity {
        switch sport {
        case 1: .run
        case 2: .ride
        case 11, 17: .walk
        case 24: .drive
        default: .other
        }
    }

    /// The FIT name of `sport` (`running`, `e_biking`…), `activity` when there is none, and
    /// `sport_<n>` for a value newer than this table.
    public static func sportName(_ sport: UInt8?) -> String {
        guard let sport else { return "activity" }
        return sportNames[sport] ?? "sport_\(sport)"
    }

    /// The FIT name of a `file_id.type` (`settings`, `course`…), `file type <n>` when unknown.
    public static func fileTypeName(_ type: UInt8) -> String {
        fileTypeNames[type] ?? "file type \(type)"
    }

    private static let fileTypeNames: [UInt8: String] = [
        1: "device", 2: "settings", 3: "sport", 4: "activity", 5: "workout", 6: "course", 7: "schedules", 9: "weight",
        10: "totals", 11: "goals", 14: "blood_pressure", 15: "monitoring_a", 20: "activity_summary",
        28: "monitoring_daily", 32: "monitoring_b", 34: "segment", 35: "segment_list", 40: "exd_configuration",
    ]

    private static let sportNames: [UInt8: String] = [
        0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming",
        6: "basketball", 7: "soccer", 8: "tennis", 9: "american_football", 10: "training", 11: "walking",
        12: "cross_country_skiing", 13: "alpine_skiing", 14: "snowboarding", 15: "rowing", 16: "mountaineering",
        17: "hiking", 18: "multisport", 19: "paddling", 20: "flying", 21: "e_biking", 22: "motorcycling",
        23: "boating", 24: "driving", 25: "golf", 26: "hang_gliding", 27: "horseback_riding", 28: "hunting",
        29: "fishing", 30: "inline_skating", 31: "rock_climbing", 32: "sailing", 33: "ice_skating",
        34: "sky_diving", 35: "snowshoeing", 36: "snowmobiling", 37: "stand_up_paddleboarding", 38: "surfing",
        39: "wakeboarding", 40: "water_skiing", 41: "kayaking", 42: "rafting", 43: "windsurfing",
        44: "kitesurfing", 45: "tactical", 46: "jumpmaster", 47: "boxing", 48: "floor_climbing", 49: "baseball",
        53: "diving", 56: "shooting", 58: "winter_sport", 59: "grinding", 62: "hiit", 63: "video_gaming",
        64: "racket", 65: "wheelchair_push_walk", 66: "wheelchair_push_run", 67: "meditation", 68: "para_sport",
        69: "disc_golf", 70: "team_sport", 71: "cricket", 72: "rugby", 73: "hockey", 74: "lacrosse",
        75: "volleyball", 76: "water_tubing", 77: "wakesurfing", 78: "water_sport", 79: "archery",
        80: "mixed_martial_arts", 81: "motor_sports", 82: "snorkeling", 83: "dance", 84: "jump_rope",
        85: "pool_apnea", 86: "mobility", 87: "geocaching", 88: "canoeing", 254: "all",
    ]
}
