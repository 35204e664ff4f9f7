import MotionSystem
import Synchronization

/// A request to stop an offload early (Ctrl-C, SIGTERM), shared by the thread that receives
/// the signal and the one copying. The copy stops between chunks: the file being written is
/// removed as unfinished, what was verified stays listed, the stick is unmounted. A program
/// the offload runs (rclone) is sent SIGTERM, so none is left running on its own.
public final class OffloadStop: Sendable {
    private struct State {
        var reason: String?
        var children: Set<Int32> = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Asks the offload to stop; `reason` says why ("Ctrl-C (SIGINT)"). The first reason stays.
    public func request(_ reason: String) {
        let running = state.withLock { s -> Set<Int32> in
            if s.reason == nil { s.reason = reason }
            return s.children
        }
        for pid in running { ChildProcesses.send(Signals.terminate, to: pid) }
    }

    /// Why the offload was asked to stop; nil while it goes on.
    public var reason: String? { state.withLock { $0.reason } }

    /// A child started for the offload: stopped with it. Returns false, having registered
    /// nothing, when a stop was asked for already (the caller ends the child itself).
    func started(_ pid: Int32) -> Bool {
        state.withLock { s in
            guard s.reason == nil else { return false }
            s.children.insert(pid)
            return true
        }
    }

    /// The child ended (or was waited for).
    func ended(_ pid: Int32) {
        _ = state.withLock { $0.children.remove(pid) }
    }
}
