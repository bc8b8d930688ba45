import Foundation
import Testing

@testable import RouteRankerServer

/// Issue 43, "costly work off the shared threads and bounded per user": the gate's rules, stepped
/// by hand (no threads, no sleeps), and the threads the work runs on.
@Suite struct CostlyWorkTests {
    typealias Gate = CostlyWork.Gate<String>

    @Test func aUsersRequestsBeyondTheBoundAreRefusedOthersWait() {
        var gate = Gate(slots: 1, perUser: 2)
        #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: "a1") == .run)
        #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: "a2") == .wait)
        #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: "a3") == .refused(perUser: 2))
        #expect(gate.enter("b", ticket: CostlyWork.Ticket(), waiter: "b1") == .wait)
        #expect(gate.running == 1 && gate.inFlight == ["a": 2, "b": 1])
        // Each end hands its slot over, in turn.
        #expect(gate.finish("a") == "a2")
        #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: "a4") == .wait)
        #expect(gate.finish("a") == "b1")
        #expect(gate.finish("b") == "a4")
        #expect(gate.finish("a") == nil)
        #expect(gate.running == 0 && gate.inFlight.isEmpty && gate.turns.isEmpty)
    }

    /// A user with many requests waiting gets one slot per round, not all of them before anyone
    /// else (a FIFO would run a1, a2, a3 before b1).
    @Test func slotsGoRoundRobinOverUsers() {
        var gate = Gate(slots: 1, perUser: 4)
        #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: "a0") == .run)
        for waiter in ["a1", "a2", "a3"] {
            #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: waiter) == .wait)
        }
        #expect(gate.enter("b", ticket: CostlyWork.Ticket(), waiter: "b1") == .wait)
        #expect(gate.enter("c", ticket: CostlyWork.Ticket(), waiter: "c1") == .wait)
        var order: [String] = []
        var current = "a"
        while let next = gate.finish(current) {
            order.append(next)
            current = String(next.prefix(1))
        }
        #expect(order == ["a1", "b1", "c1", "a2", "a3"])
    }

    @Test func aCancelledWaiterLeavesItsQueueAndItsCount() {
        var gate = Gate(slots: 1, perUser: 2)
        let ticket = CostlyWork.Ticket()
        #expect(gate.enter("a", ticket: CostlyWork.Ticket(), waiter: "a1") == .run)
        #expect(gate.enter("b", ticket: ticket, waiter: "b1") == .wait)
        #expect(gate.leave("b", ticket: ticket) == "b1")
        #expect(gate.leave("b", ticket: ticket) == nil)
        #expect(gate.inFlight == ["a": 1] && gate.turns.isEmpty)
        #expect(gate.finish("a") == nil)
        #expect(gate.running == 0)
    }

    /// The work runs on the costly threads, not the caller's; a third request of one user while
    /// two are in flight is refused at once, while another user's waits its turn.
    @Test func workRunsOnTheCostlyThreadsAndIsBoundedPerUser() async throws {
        let work = CostlyWork(threads: .requests, slots: 1, perUser: 2)
        #expect(try await work.run(user: "a") { CostlyThreads.requests.isCurrent })
        #expect(!CostlyThreads.requests.isCurrent)

        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await work.run(user: "a") {
                startedSignal.yield()
                for await _ in release { break }
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        let waiting = Task { try await work.run(user: "a") { 2 } }
        let other = Task { try await work.run(user: "b") { 3 } }
        while work.inFlight("a") < 2 || work.inFlight("b") < 1 { await Task.yield() }
        await #expect(throws: CostlyWork.Busy.self) { try await work.run(user: "a") { 4 } }
        releaseSignal.yield()
        try await holder.value
        #expect(try await waiting.value == 2)
        #expect(try await other.value == 3)
        #expect(work.inFlight("a") == 0 && work.inFlight("b") == 0)
    }
}
