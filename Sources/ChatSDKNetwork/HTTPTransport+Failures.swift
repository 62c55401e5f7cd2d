internal import ChatCore
import ChatSDK
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the requests' failures amount to, as the SDK classifies them (D7):
/// URLSession's errors become one ``TransportError`` kind. No connection
/// (refused, no route, DNS, TLS, no network) is `refused`; a connection
/// that broke, or an answer cut short or empty, is `reset`; no answer in
/// time is `timeout`; all three are retryable. An answer that came but
/// could not be read is `failed`, the one final kind. The embedded world's
/// `net fail --kind` produces the same kinds.
extension HTTPTransport {
    /// The kind of `error`, a failure of a request that got an answer's
    /// head (`answered`) or did not.
    static func kind(of error: any Error, answered: Bool) -> TransportError.Kind {
        guard let error = error as? URLError else {
            // Lost on the way before any answer (a proxy, …): it may go
            // through if sent again. After an answer: it cannot be read.
            return answered ? .failed : .reset
        }
        switch error.code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .internationalRoamingOff,
            .callIsActive, .dataNotAllowed, .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired, .cannotLoadFromNetwork, .appTransportSecurityRequiresSecureConnection:
            return .refused
        case .timedOut:
            return .timeout
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            // Broken, or closed with no answer (FoundationNetworking says
            // "Empty reply from server" as badServerResponse).
            return .reset
        default:
            // An answer cut short comes as `unknown` on Linux ("transfer
            // closed with N bytes remaining"): sent again, it may arrive.
            return answered ? .failed : .reset
        }
    }

    /// What an error of the app's own request (its token provider asking
    /// its backend) amounts to (D7): URLSession's errors read as the
    /// transport reads its own, a `TransportError` (``AppBackendClient``'s)
    /// as it is; nil for what is not the network's, or not retryable.
    package func networkFailure(of error: any Error) -> TransportError? {
        if let error = error as? TransportError { return error.kind.isRetryable ? error : nil }
        guard error is URLError else { return nil }
        // As an answer's failure: a code that names no loss is not one.
        let kind = Self.kind(of: error, answered: true)
        return kind.isRetryable ? TransportError(kind, Self.describe(error)) : nil
    }

    /// `error` in one line: URLSession's own description (which names the
    /// cause on Linux, curl's words) and its code, not the NSError dump.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
    }

    /// The failure of an answer that is not a success: 502, 503 and 504 are
    /// `unavailable` and 429 `rateLimited` (with `Retry-After`), whatever
    /// their body says; otherwise the server's `WireError`, or `failed`
    /// when the body is not one.
    static func error(status: Int, retryAfter: String?, body: Data) -> any Error {
        switch status {
        case 502, 503, 504:
            return TransportError(
                .unavailable, "The server answered HTTP \(status)", retryAfter: retryAfter.flatMap { Self.retryAfter($0) })
        case 429:
            return TransportError(
                .rateLimited, "The server answered HTTP 429", retryAfter: retryAfter.flatMap { Self.retryAfter($0) })
        default:
            if let error = try? JSONDecoder().decode(WireError.self, from: body) { return error }
            return TransportError(.failed, "The server answered HTTP \(status)")
        }
    }

    /// A `Retry-After` value: seconds, or an HTTP date (RFC 9110 §10.2.3),
    /// as a wait from now; nil when it is neither.
    static func retryAfter(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }
}
