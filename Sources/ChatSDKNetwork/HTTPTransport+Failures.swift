import AsyncHTTPClient
internal import ChatCore
import ChatSDK
import Foundation
import NIOCore
import NIOPosix

/// What the sockets' failures amount to, as the SDK classifies them (D7):
/// AsyncHTTPClient's and NIO's errors become one ``TransportError`` kind.
/// No connection (refused, no route, DNS, TLS) is `refused`; a connection
/// that broke is `reset`; no answer in time is `timeout`; all three are
/// retryable. An answer that came but could not be read is `failed`, the
/// one final kind. The embedded world's `net fail --kind` produces the
/// same kinds.
extension HTTPTransport {
    /// The kind of `error`, a failure of a request that got an answer's
    /// head (`answered`) or did not.
    static func kind(of error: any Error, answered: Bool) -> TransportError.Kind {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                return .refused
            case .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout:
                return .timeout
            case .remoteConnectionClosed:
                return .reset
            default:
                return answered ? .failed : .reset
            }
        case is NIOConnectionError:
            // Every address was tried and none accepted (or DNS failed).
            return .refused
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ENETDOWN: return .refused
            case ETIMEDOUT: return .timeout
            default: return .reset
            }
        case is ChannelError:
            return .reset
        default:
            // Lost on the way before any answer (TLS, a proxy, …): it may
            // go through if sent again. After an answer: it cannot be read.
            return answered ? .failed : .reset
        }
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
