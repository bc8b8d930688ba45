import Foundation

/// API.md's rule for names and texts (route, user, group, segment and device names, annotation
/// texts): no control characters (U+0000–U+001F, U+007F–U+009F) and no bidirectional overrides
/// or isolates (U+202A–U+202E, U+2066–U+2069). A right-to-left override makes
/// `evil\u{202E}gpj.exe` read as "evilexe.jpg" wherever the name is shown; a CR/LF or NUL breaks
/// logs, CSV cells and the pages. The one place that says which characters those are.
public enum TextRules {
    /// Whether `scalar` is one that no name or text may hold.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0 and C1 controls, DEL
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings/overrides, isolates
        default: false
        }
    }

    /// The first forbidden character of `text`, if any (for the error message).
    public static func firstForbidden(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isForbidden)
    }

    /// A sentence naming what is wrong with `text` as `field`, or `nil` when it is clean.
    public static func problem(in text: String, field: String) -> String? {
        guard let scalar = firstForbidden(in: text) else { return nil }
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        return "'\(field)' must not contain control characters or bidirectional overrides (found U+\(padded))"
    }

    /// `text` as read from a file (a GPX or TCX name, a waypoint's text, a Strava CSV cell) made
    /// acceptable instead of refused, so that one odd character does not fail a whole upload:
    /// controls become a space (a line break in a description stays a word break), bidi
    /// overrides and isolates are dropped, and the ends are trimmed. `nil` when nothing is left.
    public static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x202A...0x202E, 0x2066...0x2069: continue
            default: out.append(isForbidden(scalar) ? " " : scalar)
            }
        }
        let result = String(out).trimmingCharacters(in: .whitespaces)
        return result.isEmpty ? nil : result
    }
}
