import Foundation
import RouteRankerCore

extension Date {
    /// This date truncated to whole milliseconds, as BSON dates store it, so that what a handler
    /// returns equals what a later read returns.
    package var millisecondPrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// Milliseconds since the epoch, as a keyset cursor holds a date.
    package var millisecondsKey: String { String((timeIntervalSince1970 * 1000).clampedInt64(in: .min ... .max)) }
}
