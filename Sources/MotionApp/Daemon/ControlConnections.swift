/// The control socket's open connections and the rules that keep a slow or idle client
/// from holding the daemon shut: a total deadline per request (from accept, not reset by
/// bytes trickling in), a small request size, and when every slot is taken the oldest
/// connection still sending its request is evicted to make room for the newest.
///
/// Pure bookkeeping over file descriptors and nanosecond times; `ControlServer`'s loop
/// thread owns it and does the I/O.
struct ControlConnections {
    /// What a connection is doing.
    enum Phase: Equatable {
        /// Receiving its request line.
        case reading
        /// Its request is with the handler.
        case handling
        /// Sending its reply (the bytes left).
        case writing([UInt8])
    }

    struct Connection {
        let id: Int
        let fd: Int32
        let acceptedAt: Int64
        var deadline: Int64
        var phase: Phase = .reading
        var received: [UInt8] = []
    }

    /// Limits of the control socket.
    struct Limits: Sendable {
        /// Connections open at once; the oldest still sending its request makes way for a new one.
        var maxConnections = 32
        /// Time to send a whole request, from accept (ns).
        var requestNanos: Int64 = 5_000_000_000
        /// Time to take the whole reply once it is ready (ns).
        var replyNanos: Int64 = 5_000_000_000
        /// Longest request line (a request is about 60 bytes; a label is one letter).
        var maxRequestBytes = 1024
    }

    let limits: Limits
    private(set) var open: [Connection] = []
    private var nextID = 0

    init(limits: Limits) { self.limits = limits }

    var count: Int { open.count }

    /// Adds a new connection. When every slot is taken, the oldest connection still reading
    /// its request (else the oldest still writing its reply) is removed and returned for
    /// closing; when every connection is with the handler, the new one is refused (nil id).
    mutating func admit(fd: Int32, now: Int64) -> (id: Int?, evicted: Connection?) {
        var evicted: Connection?
        if open.count >= limits.maxConnections {
            let victim = open.firstIndex { $0.phase == .reading }
                ?? open.firstIndex { if case .writing = $0.phase { return true } else { return false } }
            guard let victim else { return (nil, nil) }
            evicted = open.remove(at: victim)
        }
        nextID += 1
        open.append(Connection(id: nextID, fd: fd, acceptedAt: now, deadline: now + limits.requestNanos))
        return (nextID, evicted)
    }

    func connection(_ id: Int) -> Connection? { open.first { $0.id == id } }

    /// What bytes just received mean for the connection.
    enum Received: Equatable {
        case needMore
        case line([UInt8])
        case tooLong
    }

    /// Appends received bytes; a whole line ends the reading phase.
    mutating func received(_ bytes: ArraySlice<UInt8>, on id: Int) -> Received {
        guard let i = open.firstIndex(where: { $0.id == id }) else { return .needMore }
        if let lf = bytes.firstIndex(of: 0x0A) {
            let line = open[i].received + bytes[bytes.startIndex..<lf]
            open[i].received = []
            guard line.count <= limits.maxRequestBytes else { return .tooLong }
            open[i].phase = .handling
            return .line(line)
        }
        open[i].received += bytes
        if open[i].received.count > limits.maxRequestBytes {
            open[i].received = []
            return .tooLong
        }
        return .needMore
    }

    /// How many more bytes a reading connection may take (one beyond the limit shows it is too long).
    func readAllowance(_ id: Int) -> Int {
        guard let c = connection(id) else { return 0 }
        return max(1, limits.maxRequestBytes + 2 - c.received.count)
    }

    /// The reply is ready: the connection now has `replyNanos` to take it.
    mutating func reply(_ bytes: [UInt8], to id: Int, now: Int64) {
        guard let i = open.firstIndex(where: { $0.id == id }) else { return }
        open[i].phase = .writing(bytes)
        open[i].deadline = now + limits.replyNanos
    }

    /// `n` reply bytes went out; true when the whole reply is sent.
    mutating func sent(_ n: Int, on id: Int) -> Bool {
        guard let i = open.firstIndex(where: { $0.id == id }), case .writing(let bytes) = open[i].phase else { return true }
        let rest = Array(bytes.dropFirst(n))
        open[i].phase = .writing(rest)
        return rest.isEmpty
    }

    mutating func remove(_ id: Int) -> Connection? {
        guard let i = open.firstIndex(where: { $0.id == id }) else { return nil }
        return open.remove(at: i)
    }

    /// Removes and returns the connections past their deadline (never one with the handler:
    /// a stop that waits for the files to close is not cut off).
    mutating func expire(now: Int64) -> [Connection] {
        let late = open.filter { $0.phase != .handling && $0.deadline <= now }
        open.removeAll { c in late.contains { $0.id == c.id } }
        return late
    }

    /// The earliest deadline of a connection that has one.
    var nextDeadline: Int64? { open.filter { $0.phase != .handling }.map(\.deadline).min() }

    /// Bytes held for all connections (requests being received and replies being sent).
    var bufferedBytes: Int {
        open.reduce(0) { total, c in
            if case .writing(let b) = c.phase { return total + c.received.count + b.count }
            return total + c.received.count
        }
    }
}
