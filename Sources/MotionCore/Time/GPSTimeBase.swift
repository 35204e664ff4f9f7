import Synchronization

/// Which clock When is based on, and what correction GPS time brought: written into every
/// metadata file (`counters.time`).
public struct GPSTimeRecord: Codable, Sendable, Equatable {
    /// `system` (the system clock, synchronised by a time service), `system-unsynchronised`
    /// (no time service and no GPS time yet: When and file names are provisional), `gps`
    /// (When anchored to GPS time), or `simulated`. Written to the metadata once, as
    /// `recording.clock` (not repeated here).
    public var clock: String = "unknown"
    /// `recording.clock` of a recording whose times no time service and no GPS time set.
    public static let unsynchronisedClock = "system-unsynchronised"
    /// `recording.clock` once When is anchored to GPS time.
    public static let gpsClock = "gps"
    /// The kernel's verdict at start (ntp_adjtime), nil when not checked (simulated clock).
    public var systemClockSynchronised: Bool?
    public var systemClockDetail: String?
    /// GPS time minus the system clock's anchor, seconds (latest estimate), once GPS time
    /// is known. With a synchronised clock this is only measured, never applied.
    public var gpsMinusSystemSeconds: Double?
    /// The correction added to When now, seconds (0 unless anchored to GPS).
    public var correctionSeconds: Double = 0
    /// The correction still being slewed in, seconds (0 when none).
    public var slewRemainingSeconds: Double = 0
    /// Forward steps taken, and the When (corrected) of the first tick after the first step.
    public var steps: Int = 0
    public var firstCorrectedWhen: Double?
    /// The size of the first step, seconds: the IMU rows before `firstCorrectedWhen` are
    /// this much behind GPS time (readers place them with it; `L` rows always carry GPS time).
    public var firstStepSeconds: Double?
    /// Spread of fix report delays behind the estimate, seconds (gpsd's variable latency,
    /// which the estimate is immune to).
    public var gpsDelaySpreadSeconds: Double?
    /// How files are named while GPS time is not known (see docs/GPS.md).
    public var provisionalNaming: String?

    enum CodingKeys: String, CodingKey {
        case systemClockSynchronised, systemClockDetail, gpsMinusSystemSeconds, correctionSeconds,
             slewRemainingSeconds, steps, firstCorrectedWhen, firstStepSeconds, gpsDelaySpreadSeconds, provisionalNaming
    }

    public init(clock: String, systemClockSynchronised: Bool? = nil, systemClockDetail: String? = nil) {
        self.clock = clock; self.systemClockSynchronised = systemClockSynchronised
        self.systemClockDetail = systemClockDetail
    }
}

/// The recording's time base, shared by the sampling thread (which corrects When) and the
/// writer thread (which names files): whether file times are still provisional and the
/// correction applied so far. Cheap atomic reads for the writer; the full record behind a
/// lock for the metadata.
public final class GPSTimeBase: Sendable {
    private let provisional: Atomic<Bool>
    private let correction = Atomic<Int64>(0)
    /// Bit pattern of the When of the last tick before the forward step (nan: no step).
    private let stepBoundary = Atomic<UInt64>(Double.nan.bitPattern)
    private let record: Mutex<GPSTimeRecord>
    /// Prefix of provisional file names, e.g. `unsynced-3f2a9c1e` (boot id).
    public let provisionalPrefix: String

    /// - Parameters:
    ///   - systemClockSynchronised: the kernel's verdict at start; when false, When and file
    ///     names wait for GPS time.
    ///   - provisionalPrefix: the start of provisional file names (the app adds the boot id).
    public init(systemClockSynchronised: Bool, detail: String, provisionalPrefix: String = RecordingFiles.provisionalStem) {
        provisional = Atomic(!systemClockSynchronised)
        self.provisionalPrefix = provisionalPrefix
        var r = GPSTimeRecord(clock: systemClockSynchronised ? "system" : GPSTimeRecord.unsynchronisedClock,
                              systemClockSynchronised: systemClockSynchronised, systemClockDetail: detail)
        if !systemClockSynchronised {
            r.provisionalNaming = "\(provisionalPrefix)-<seconds since boot>, renamed to yyyyMMddHHmmss once GPS time is known"
        }
        record = Mutex(r)
    }

    /// True while the system clock is unsynchronised and GPS time is not known yet.
    public var isProvisional: Bool { provisional.load(ordering: .acquiring) }

    /// GPS time minus the system clock's anchor when the provisional period ended, seconds:
    /// what a provisional row's When lacks to be true UTC (for renaming provisional files).
    public var correctionSeconds: Double { Double(correction.load(ordering: .acquiring)) / 1e9 }

    public var snapshot: GPSTimeRecord { record.withLock { $0 } }

    /// The epoch seconds a row's When stands for, for naming files: a row written before
    /// the correction (every row while provisional, and in epoch mode rows up to the
    /// forward step) lacks `correctionSeconds`; relative When never carries it.
    /// `whenOffset` is the writer's (0 in epoch mode, the uncorrected start in relative mode).
    public func namingEpoch(when: Double, whenOffset: Double, whenMode: WhenMode) -> Double {
        let base = when + whenOffset
        guard !isProvisional else { return base }
        if whenMode == .relative { return base + correctionSeconds }
        let boundary = Double(bitPattern: stepBoundary.load(ordering: .acquiring))
        return when <= boundary ? base + correctionSeconds : base
    }

    /// Publishes the corrector's record from the sampling thread: never waits; false when
    /// the writer holds the lock at this instant (the caller retries on a later tick).
    func tryPublish(_ new: GPSTimeRecord) -> Bool {
        record.withLockIfAvailable { $0 = new } != nil
    }

    /// GPS time is known (`correctionNanos` = GPS − system anchor): file times are final.
    func endProvisional(correctionNanos: Int64, stepBoundaryWhen: Double? = nil) {
        if let b = stepBoundaryWhen { stepBoundary.store(b.bitPattern, ordering: .releasing) }
        correction.store(correctionNanos, ordering: .releasing)
        provisional.store(false, ordering: .releasing)
    }
}
