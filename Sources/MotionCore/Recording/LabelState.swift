import Synchronization

/// The current label letter, settable from any thread (CLI, button, control socket) and
/// read by the sampling thread once per tick.
public final class LabelState: Sendable {
    private let value: Atomic<UInt8>
    public init(_ initial: UInt8) { value = Atomic(initial) }
    public var current: UInt8 { value.load(ordering: .relaxed) }
    public func set(_ letter: UInt8) { value.store(letter, ordering: .relaxed) }
}
