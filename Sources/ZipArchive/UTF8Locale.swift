import Foundation

/// C.UTF-8's character type, for `withUTF8Locale` (nil where that locale does not exist: then
/// names are converted in the process's locale).
private nonisolated(unsafe) let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

/// Runs `body` with this thread's character type (LC_CTYPE) set to UTF-8, and restores it.
///
/// libarchive converts entry names between the archive's character set and the locale's, and
/// caches the locale's per archive object the first time it converts. A server runs in the "C"
/// locale (ASCII), where a name flagged UTF-8 fails to convert for any other letter. `uselocale`
/// changes the calling thread only (setlocale would change the whole process), for this call only.
func withUTF8Locale<T>(_ body: () throws -> T) rethrows -> T {
    guard let utf8Locale else { return try body() }
    let previous = uselocale(utf8Locale)
    defer { uselocale(previous) }
    return try body()
}
