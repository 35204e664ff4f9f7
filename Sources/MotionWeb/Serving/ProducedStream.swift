import Foundation
import HummingbirdCore
import NIOCore
import Synchronization

/// Streams what a blocking producer emits to a response body, at most `depth` chunks
/// ahead of the client (back-pressure: memory stays at a few chunks however slow the
/// client is). The producer runs on a thread of its own, not on NIO's blocking pool, so a
/// slow client never holds a pool thread that file reads and listings need. When the
/// client goes away the producer's next `emit` throws and it stops.
enum ProducedStream {
    struct ClientGone: Error {}

    /// Set once the response is over; the producer checks it at each chunk.
    private final class Stop: Sendable {
        let flag = Atomic<Bool>(false)
    }

    static func run(to writer: inout any ResponseBodyWriter, depth: Int = 4, name: String,
                    produce: @escaping @Sendable (_ emit: @escaping ([UInt8]) throws -> Void) throws -> Void) async throws {
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let credits = DispatchSemaphore(value: depth)
        let stop = Stop()
        let thread = Thread {
            do {
                try produce { bytes in
                    credits.wait()
                    if stop.flag.load(ordering: .acquiring) { throw ClientGone() }
                    continuation.yield(ByteBuffer(bytes: bytes))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = name
        thread.start()
        defer {
            stop.flag.store(true, ordering: .releasing)
            for _ in 0...depth { credits.signal() }
        }
        for try await chunk in stream {
            try await writer.write(chunk)
            credits.signal()
        }
    }
}
