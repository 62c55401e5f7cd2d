import ChatCore
import Crypto
import Foundation
import JWTKit

/// The JWTs an app's backend signs for its users (SPEC A5): HS256 with the
/// app's secret, claims `external_id`, `name`, `email`, `exp`, `iat`.
///
/// Why verification does not call `JWTKeyCollection.verify`: jwt-kit's
/// verification is `async` (the key collection is an actor and
/// `JWTPayload.verify(using:)` is async), whereas the backend is synchronous
/// and runs inside the deterministic simulation, where hopping to another
/// executor would make the order of work depend on the thread pool. So the
/// backend uses jwt-kit's synchronous pieces — `DefaultJWTParser` to split
/// and decode the header and claims, `ExpirationClaim` — and checks the
/// signature itself with swift-crypto's `HMAC<SHA256>` (the primitive
/// jwt-kit uses, compared in constant time), against the virtual clock.
/// Tokens signed by jwt-kit's `JWTKeyCollection.sign` or by any other
/// standard library with the same secret verify (see the tests and the
/// PyJWT fixture).
package enum AppJWT {
    /// How far in the future an `iat` (or `nbf`) may lie: clocks of the
    /// app's backend and of this server differ a little.
    package static let allowedClockSkew: Duration = .seconds(60)
    /// Longest JWT accepted, in bytes.
    package static let maxLength = 8 * 1024

    /// The claims of an app's JWT. Every claim is optional in decoding so
    /// that a missing one is reported by name rather than as "malformed".
    package struct Claims: JWTPayload, Equatable {
        /// The user's id in the app: the backend's user id. Required.
        package var externalId: String?
        package var name: String?
        package var email: String?
        /// Expiry. Required.
        package var exp: ExpirationClaim?
        /// Issue time. Optional; refused when in the future beyond ``allowedClockSkew``.
        package var iat: IssuedAtClaim?
        /// Not-before. Optional; refused when in the future beyond ``allowedClockSkew``.
        package var nbf: NotBeforeClaim?

        enum CodingKeys: String, CodingKey {
            case externalId = "external_id"
            case name, email, exp, iat, nbf
        }

        package init(externalId: String?, name: String? = nil, email: String? = nil, exp: Date?, iat: Date? = nil, nbf: Date? = nil) {
            self.externalId = externalId
            self.name = name
            self.email = email
            self.exp = exp.map(ExpirationClaim.init(value:))
            self.iat = iat.map(IssuedAtClaim.init(value:))
            self.nbf = nbf.map(NotBeforeClaim.init(value:))
        }

        /// Required by `JWTPayload`; deliberately empty. jwt-kit calls it
        /// from its async `verify`, which the backend does not use: the
        /// claims are checked synchronously by ``AppJWT/verify(_:secret:now:)``
        /// against the injected (virtual) clock, never the system clock.
        package func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// What a verified JWT says.
    package struct Verified: Sendable, Hashable {
        package var externalId: String
        package var name: String?
        package var email: String?
        package var expiresAt: Instant
    }

    /// Verifies a JWT against the app's secret at time `now`.
    ///
    /// Throws `invalidJWT` (with a message saying why: malformed or
    /// truncated, not HS256 — `none`, RS256… —, bad signature, a missing or
    /// bad `external_id` or `exp`, issued in the future) or `expiredJWT`
    /// ("The JWT has expired") when `exp` is not after `now`. Messages never
    /// contain the token.
    package static func verify(_ jwt: String, secret: String, now: Instant) throws(WireError) -> Verified {
        guard jwt.utf8.count <= maxLength else { throw WireError(.invalidJWT, "The JWT is longer than \(maxLength) bytes") }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw WireError(.invalidJWT, "The JWT is malformed: it must have three parts separated by dots")
        }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard parts.allSatisfy({ $0.allSatisfy(alphabet.contains) }) else {
            throw WireError(.invalidJWT, "The JWT is malformed: it has characters outside base64url")
        }
        let header: JWTHeader
        let claims: Claims
        let signature: Data
        do {
            (header, claims, signature) = try DefaultJWTParser().parse(Array(jwt.utf8), as: Claims.self)
        } catch {
            throw WireError(.invalidJWT, "The JWT is malformed: its header or claims do not decode")
        }
        guard let alg = header.alg, alg == "HS256" else {
            let named = header.alg.map { "\"\($0.prefix(20))\"" } ?? "no algorithm"
            throw WireError(.invalidJWT, "The JWT must be signed with HS256, not \(named)")
        }
        guard !secret.isEmpty,
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8),
                using: SymmetricKey(data: Data(secret.utf8)))
        else { throw WireError(.invalidJWT, "The JWT's signature does not match the app's secret") }
        guard let externalId = claims.externalId else { throw WireError(.invalidJWT, "The JWT has no external_id claim") }
        do {
            try Backend.validateIdentifier(externalId, what: "JWT's external_id")
        } catch {
            throw WireError(.invalidJWT, error.message)
        }
        guard let exp = claims.exp, exp.value.timeIntervalSince1970.isFinite else {
            throw WireError(.invalidJWT, "The JWT has no exp claim")
        }
        let current = now.date
        do {
            try exp.verifyNotExpired(currentDate: current)
        } catch {
            throw WireError(.expiredJWT)
        }
        let latest = (now + allowedClockSkew).date
        if let iat = claims.iat, iat.value > latest {
            throw WireError(.invalidJWT, "The JWT was issued in the future (iat)")
        }
        if let nbf = claims.nbf, nbf.value > latest {
            throw WireError(.invalidJWT, "The JWT is not valid yet (nbf)")
        }
        let expMs = exp.value.timeIntervalSince1970 * 1000
        let expiresAt = Instant(milliseconds: expMs >= Double(Int64.max / 2) ? Int64.max / 2 : Int64(expMs))
        return Verified(externalId: Identifier.normalized(externalId), name: claims.name, email: claims.email, expiresAt: expiresAt)
    }

    /// Signs claims as an app's backend would (HS256), synchronously.
    ///
    /// For callers that cannot await jwt-kit's actor inside a deterministic
    /// simulation; the result is a standard JWT (`{"alg":"HS256","typ":"JWT"}`)
    /// that jwt-kit and other libraries verify. Unlike jwt-kit's
    /// `add(hmac:)`, which asserts in debug builds that the key has at least
    /// 32 bytes, it accepts any non-empty secret (the embedded world's demo
    /// secret has 28).
    package static func sign(_ claims: Claims, secret: String) -> String {
        sign(claims, secret: secret, algorithm: "HS256")
    }

    /// Signs claims with `HS256`, or as a backend that gets it wrong would:
    /// `HS384` (HMAC-SHA384 with the app's secret) or `none` (no
    /// signature), which ``verify(_:secret:now:)`` refuses.
    package static func sign(_ claims: Claims, secret: String, algorithm: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        // Encoding a struct of strings and dates cannot fail.
        let payload = (try? encoder.encode(claims)) ?? Data("{}".utf8)
        let header = Data(#"{"alg":"\#(algorithm)","typ":"JWT"}"#.utf8)
        switch algorithm {
        case "HS384":
            let input = "\(header.base64URLEncodedString()).\(payload.base64URLEncodedString())"
            let mac = HMAC<SHA384>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
            return "\(input).\(Data(mac).base64URLEncodedString())"
        case "none": return "\(header.base64URLEncodedString()).\(payload.base64URLEncodedString())."
        default: return sign(header: header, payload: payload, secret: secret)
        }
    }

    /// HMAC-SHA256 over `base64url(header).base64url(payload)`, whatever the
    /// header says (tests use it to forge headers such as `RS256`).
    static func sign(header: Data, payload: Data, secret: String) -> String {
        let input = "\(header.base64URLEncodedString()).\(payload.base64URLEncodedString())"
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(input).\(Data(mac).base64URLEncodedString())"
    }
}

extension Instant {
    /// This instant as a Foundation `Date`.
    var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

extension Data {
    /// Base64url without padding (RFC 7515).
    func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
