import Synchronization

/// A flag the test's readers poll, set once to stop them.
public final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    public init() {}
    public var isSet: Bool { value.load(ordering: .relaxed) }
    public func set() { value.store(true, ordering: .relaxed) }
}
