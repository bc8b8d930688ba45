import RouteRankerModels
import Testing

/// `ListTotal.fromFirstPage`: a first page read short is the whole list; anything else is counted.
@Suite struct ListTotalTests {
    @Test func aFirstPageReadShortIsTheWholeList() {
        #expect(ListTotal.fromFirstPage(isFirst: true, read: 0, asked: 21) == 0)
        #expect(ListTotal.fromFirstPage(isFirst: true, read: 7, asked: 21) == 7)
        #expect(ListTotal.fromFirstPage(isFirst: true, read: 20, asked: 21) == 20)
    }

    @Test func aFullFirstPageOrALaterPageMustBeCounted() {
        // Read as many as asked: there may be more.
        #expect(ListTotal.fromFirstPage(isFirst: true, read: 21, asked: 21) == nil)
        // A later page, even a short one, knows nothing of the pages before it.
        #expect(ListTotal.fromFirstPage(isFirst: false, read: 3, asked: 21) == nil)
        #expect(ListTotal.fromFirstPage(isFirst: false, read: 0, asked: 21) == nil)
    }
}
