#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Keeps a file that shrinks while it is mapped (`MappedFile`) from killing the process.
///
/// Reading a page of a mapping that now lies wholly past the file's end raises SIGBUS,
/// whose default ends the process: another program truncating the file, the recorder
/// cutting back a half-written block on a full card, or a disk going away would take a
/// daemon and its recording with it. The guard's SIGBUS handler looks the faulting
/// address up in the mappings registered here; inside one, it maps zero pages over the
/// rest of that mapping (`MAP_FIXED`), marks it, and returns, so the read goes on with
/// zeros and the reader learns afterwards (`wasHit`) that what it read is not the file.
/// Anywhere else it puts back the handler that was there before and returns: the same
/// fault, taken again, has the effect it would have had without the guard.
///
/// The handler only reads atomics and calls mmap(2) (a system call), as a signal
/// handler may. Registrations are lock-free: a fixed table of `capacity` mappings.
enum MappedFileGuard {
    /// Mappings guarded at once; a mapping beyond these is not made (`register` says nil).
    static let capacity = 64

    /// Registers the bytes `[start, end)` of a mapping; nil when the table is full.
    static func register(start: Int, end: Int) -> Int? {
        let table = Table.shared
        installOnce()
        for slot in 0..<capacity {
            guard table.starts[slot].compareExchange(expected: 0, desired: -1, ordering: .acquiring).exchanged else {
                continue
            }
            table.hits[slot].store(0, ordering: .relaxed)
            table.ends[slot].store(end, ordering: .relaxed)
            table.starts[slot].store(start, ordering: .releasing)
            return slot
        }
        return nil
    }

    /// Whether the handler replaced pages of the registration's mapping with zeros.
    static func wasHit(_ slot: Int) -> Bool { Table.shared.hits[slot].load(ordering: .acquiring) != 0 }

    /// Ends a registration (before the mapping is unmapped).
    static func unregister(_ slot: Int) { Table.shared.starts[slot].store(0, ordering: .releasing) }

    /// The registered mappings. Its storage is allocated once and never freed (the
    /// handler may read it at any time).
    final class Table: @unchecked Sendable {
        static let shared = Table()
        let starts = Table.atomics()
        let ends = Table.atomics()
        let hits = Table.atomics()
        let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))

        private static func atomics() -> UnsafeMutablePointer<Atomic<Int>> {
            let p = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
            for k in 0..<capacity { (p + k).initialize(to: Atomic(0)) }
            return p
        }
    }

    /// The SIGBUS action before the guard's, put back for faults outside the mappings.
    nonisolated(unsafe) static var previous = sigaction()
    /// 0: the handler is not installed, 1: a thread is installing it, 2: installed.
    private static let installed = Atomic<Int>(0)

    private static func installOnce() {
        guard installed.load(ordering: .acquiring) != 2 else { return }
        guard installed.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else {
            while installed.load(ordering: .acquiring) != 2 { sched_yield() }
            return
        }
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = busHandler
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previous)
        installed.store(2, ordering: .releasing)
    }

    /// In the handler: zero pages over the rest of the registered mapping holding
    /// `address`, which is marked; false when no mapping holds it.
    static func zeroPages(at address: Int) -> Bool {
        let table = Table.shared
        for slot in 0..<capacity {
            let start = table.starts[slot].load(ordering: .acquiring)
            guard start > 0, address >= start else { continue }
            let end = table.ends[slot].load(ordering: .relaxed)
            guard address < end else { continue }
            let from = address / table.pageBytes * table.pageBytes
            let zeros = mmap(UnsafeMutableRawPointer(bitPattern: from), end - from, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
            guard zeros != MAP_FAILED else { return false }
            table.hits[slot].store(1, ordering: .releasing)
            return true
        }
        return false
    }
}

/// The guard's SIGBUS handler (see `MappedFileGuard`).
private let busHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, info, _ in
    if let info, info.pointee.si_code > 0,
       MappedFileGuard.zeroPages(at: Int(bitPattern: info.pointee._sifields._sigfault.si_addr)) {
        return
    }
    // Not ours: the action from before the guard takes this fault when it happens again
    // on return, or this signal (sent by a process) once it is unblocked.
    sigaction(SIGBUS, &MappedFileGuard.previous, nil)
    if let info, info.pointee.si_code <= 0 { raise(SIGBUS) }
}
