import HTTPTypes
import HummingbirdCore
import NIOCore
import Synchronization

/// Closes the connection of a download whose client stopped reading: when a write to the
/// client has made no progress for `timeout`, the channel is closed, the pending write
/// fails, the download's file descriptor and slot are released. Without it, a client that
/// never reads would hold a slot (and an open file) for as long as it keeps the socket.
///
/// Every write of the response goes through `write`, which counts completed writes; a
/// watcher task wakes every quarter of `timeout` and closes the channel when a write has
/// been pending with none completed for four looks in a row (so a stall is noticed after
/// one to one and a quarter timeouts; waking once per timeout took up to two, and eight
/// clients that never read held every download slot for two minutes).
/// The response's body calls `end()` however it ends: the download slot is released there,
/// and `onStalledEnd` runs when the end came from a stall.
final class StallGuard: Sendable {
    private let channel: any Channel
    private let timeout: Duration
    private let completed = Atomic<Int>(0)
    private let pending = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let stalled = Atomic<Bool>(false)
    private let slot: DownloadSlot?
    private let onStall: @Sendable () -> Void
    private let onStalledEnd: @Sendable () -> Void
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    init(channel: any Channel, timeout: Duration, slot: DownloadSlot?, onStall: @escaping @Sendable () -> Void,
         onStalledEnd: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.timeout = timeout
        self.slot = slot
        self.onStall = onStall
        self.onStalledEnd = onStalledEnd
        let task = Task { [self] in await self.watch() }
        watcher.withLock { $0 = task }
    }

    /// The response body is over (finished, failed or cut off): frees the slot.
    func end() {
        finished.store(true, ordering: .releasing)
        watcher.withLock { $0?.cancel() }
        slot?.release()
        if stalled.load(ordering: .acquiring) { onStalledEnd() }
    }

    /// Writes one buffer to the client, counted.
    func write(_ buffer: ByteBuffer, to writer: inout any ResponseBodyWriter) async throws {
        pending.store(true, ordering: .releasing)
        defer { pending.store(false, ordering: .releasing) }
        try await writer.write(buffer)
        completed.add(1, ordering: .relaxed)
    }

    /// The download ended (completely or not): the watcher stops.
    func finish() { finished.store(true, ordering: .releasing) }

    /// Looks per `timeout`.
    static let looks = 4

    private func watch() async {
        var seen = completed.load(ordering: .relaxed)
        var idle = 0
        while !finished.load(ordering: .acquiring) {
            do { try await Task.sleep(for: timeout / Self.looks) } catch { return }
            let now = completed.load(ordering: .relaxed)
            idle = now == seen && pending.load(ordering: .acquiring) ? idle + 1 : 0
            seen = now
            if idle >= Self.looks && !finished.load(ordering: .acquiring) {
                stalled.store(true, ordering: .releasing)
                onStall()
                channel.close(promise: nil)
                return
            }
        }
    }
}

/// A response body writer whose writes go through a `StallGuard`.
struct GuardedWriter: ResponseBodyWriter {
    var inner: any ResponseBodyWriter
    let stall: StallGuard

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await stall.write(buffer, to: &inner)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        stall.finish()
        try await inner.finish(trailingHeaders)
    }
}
