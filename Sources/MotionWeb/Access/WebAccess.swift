import Foundation
import Synchronization

/// Who may do what: sessions after a password login, the CSRF token each page carries, and
/// the rate limit on failed logins. Without a password (loopback only) there is one
/// anonymous session whose CSRF token the pages carry; state changes still need it, so a
/// web site open in the owner's browser cannot post to `localhost`.
public final class WebAccess: Sendable {
    /// The session cookie's name.
    public static let cookieName = "motionlog_session"
    /// Sessions end this long after login.
    public static let sessionSeconds = 7 * 24 * 3600.0
    /// Failed logins from one address allowed per window before it must wait.
    public static let allowedFailures = 5
    public static let failureWindowSeconds = 60.0

    /// The bcrypt hash logins are checked against; nil: no password (loopback only).
    public let passwordHash: String?
    private let clock: @Sendable () -> Double
    private let verify: @Sendable (String, String) -> Bool
    private let state: Mutex<State>

    struct Session: Sendable { var csrf: String; var expires: Double }

    struct State: Sendable {
        var sessions: [String: Session] = [:]
        var failures: [String: [Double]] = [:]
        let anonymousCSRF: String
    }

    /// `verify(password, hash)` checks a password (bcrypt in production).
    public init(passwordHash: String?, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                verify: @escaping @Sendable (String, String) -> Bool) {
        self.passwordHash = passwordHash
        self.clock = clock
        self.verify = verify
        state = Mutex(State(anonymousCSRF: Self.randomToken()))
    }

    public var needsLogin: Bool { passwordHash != nil }

    /// 32 random bytes as hex, from the system's CSPRNG.
    static func randomToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }

    /// The session of a cookie value, if it is live. Without a password everyone has the
    /// anonymous session.
    func session(cookie: String?) -> Session? {
        let now = clock()
        return state.withLock { s in
            guard passwordHash != nil else { return Session(csrf: s.anonymousCSRF, expires: .infinity) }
            guard let cookie, let session = s.sessions[cookie] else { return nil }
            if session.expires < now { s.sessions[cookie] = nil; return nil }
            return session
        }
    }

    enum LoginResult: Equatable {
        case ok(cookie: String)
        case wrong
        /// Too many failures from this address: wait this many seconds.
        case wait(Int)
    }

    /// Checks a password; `client` is the remote address (the rate limit's key).
    func login(password: String, client: String) -> LoginResult {
        guard let hash = passwordHash else { return .wrong }
        let now = clock()
        let waitSeconds: Int? = state.withLock { s in
            let recent = (s.failures[client] ?? []).filter { now - $0 < Self.failureWindowSeconds }
            s.failures[client] = recent.isEmpty ? nil : recent
            guard recent.count >= Self.allowedFailures, let oldest = recent.first else { return nil }
            return max(1, Int((Self.failureWindowSeconds - (now - oldest)).rounded(.up)))
        }
        if let waitSeconds { return .wait(waitSeconds) }
        guard password.utf8.count <= 72, verify(password, hash) else {
            state.withLock { s in
                if s.failures.count > 10_000 { s.failures.removeAll() }   // bounded memory under a flood
                s.failures[client, default: []].append(now)
            }
            return .wrong
        }
        let cookie = Self.randomToken()
        state.withLock { s in
            s.sessions = s.sessions.filter { $0.value.expires >= now }
            s.sessions[cookie] = Session(csrf: Self.randomToken(), expires: now + Self.sessionSeconds)
        }
        return .ok(cookie: cookie)
    }

    func logout(cookie: String?) {
        guard let cookie else { return }
        _ = state.withLock { $0.sessions.removeValue(forKey: cookie) }
    }

    /// Constant-time comparison of a submitted CSRF token with the session's.
    static func tokensMatch(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}

