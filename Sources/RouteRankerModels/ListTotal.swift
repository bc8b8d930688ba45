/// The `total` of a list envelope.
package enum ListTotal {
    /// The total, when reading the first page already read the whole list: a first page (no
    /// cursor) asked for `asked` items (the page and one more, to know whether a next page exists)
    /// that got fewer has read every item, so `read` is the count, and counting again would cost a
    /// database round trip for the same number. Nil when the list must be counted.
    package static func fromFirstPage(isFirst: Bool, read: Int, asked: Int) -> Int? {
        isFirst && read < asked ? read : nil
    }
}
