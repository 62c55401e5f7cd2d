import ChatCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// An error as the server answers it: an HTTP status and the JSON body
/// `{"code": "...", "message": "..."}` (a ``WireError``).
///
/// This is the one place where errors become HTTP answers (the server's edge).
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var error: WireError
    var headers: HTTPFields = [:]

    init(_ error: WireError) {
        self.status = Self.status(for: error.code)
        self.error = error
    }

    init(status: HTTPResponse.Status, _ code: WireError.Code, _ message: String) {
        self.status = status
        self.error = WireError(code, message)
    }

    /// A generated operation's failure: the handler's `WireError` as it is;
    /// a request the generated code could not read is a bad request (a body
    /// that does not decode names where), and anything else is the server's.
    init(_ error: ServerError) {
        switch error.underlyingError {
        case let wire as WireError:
            self.init(wire)
        case let decoding as DecodingError:
            self.init(WireError(.badRequest, JSONBody.describe(decoding)))
        default:
            if error.httpStatus == .unsupportedMediaType {
                self.init(WireError(.unsupportedMediaType, error.causeDescription))
            } else if error.httpStatus.kind == .clientError {
                self.init(WireError(.badRequest, error.causeDescription))
            } else {
                self.init(WireError(.internalError))
            }
        }
    }

    /// The HTTP status of each wire error code.
    static func status(for code: WireError.Code) -> HTTPResponse.Status {
        switch code {
        case .invalidApiKey, .invalidToken, .expiredToken, .invalidRefreshToken, .expiredRefreshToken,
            .invalidJWT, .expiredJWT, .invalidAccessToken, .invalidSessionToken, .expiredSessionToken, .userNotAuthorized,
            .invalidAppSecret, .invalidSignature:
            .unauthorized
        case .forbidden, .userIdOnlyNotAllowed, .accessTokenRequired: .forbidden
        case .unknownUser, .unknownConversation, .unknownMessage, .unknownAttachment, .unknownRoute: .notFound
        case .badRequest: .badRequest
        case .methodNotAllowed: .methodNotAllowed
        case .attachmentTooLarge, .requestTooLarge: .contentTooLarge
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .upgradeRequired: .upgradeRequired
        case .unsupportedMediaType: .unsupportedMediaType
        // internalError, and a code this build does not know.
        default: .internalServerError
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(error, status: status)
        for field in headers { response.headers.append(field) }
        return response
    }
}

/// Turns every error of a route, and the router's own "not found", into a
/// JSON error body: the server never answers an empty 500 for bad input.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Methods of each route path, to answer 405 rather than 404 for a known path.
    let methodsByPath: [RouteTemplate: [String]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try answer(error, detail: error.error.message, request: request, context: context)
        } catch let error as WireError {
            return try answer(APIError(error), detail: error.message, request: request, context: context)
        } catch let error as ServerError {
            // Never `\(error)`: a ServerError describes the whole request,
            // its credentials and body included (issue 26).
            let detail = (error.underlyingError as? WireError)?.message ?? "\(type(of: error.underlyingError)): \(error.causeDescription)"
            return try answer(APIError(error), detail: detail, request: request, context: context)
        } catch let error as HTTPError {
            return try translate(error, request: request).response(from: request, context: context)
        } catch let error as DecodingError {
            return try APIError(WireError(.badRequest, JSONBody.describe(error))).response(from: request, context: context)
        } catch {
            return try answer(APIError(WireError(.internalError)), detail: "\(error)", request: request, context: context)
        }
    }

    /// The answer to a failed request. A failure of the server's own (500)
    /// is answered with its code and a generic message; what went wrong goes
    /// to the log, named by the request's method and path, with anything
    /// shaped like a credential taken out (issue 26: a 500 answered SQLite's
    /// message and the SQL, and logged the request's headers and body).
    private func answer(_ error: APIError, detail: String, request: Request, context: Context) throws -> Response {
        guard error.status == .internalServerError else { return try error.response(from: request, context: context) }
        context.logger.error(
            "request failed",
            metadata: [
                "request": "\(request.method) \(request.uri.path)",
                "error": "\(LogRedaction.redact(detail))",
            ])
        var generic = APIError(WireError(error.error.code))
        generic.headers = error.headers
        return try generic.response(from: request, context: context)
    }

    private func translate(_ error: HTTPError, request: Request) -> APIError {
        if error.status == .notFound {
            let path = request.uri.path
            if let template = methodsByPath.keys.first(where: { $0.matches(path) }), let methods = methodsByPath[template] {
                var answer = APIError(
                    WireError(
                        .methodNotAllowed,
                        "\(request.method) is not allowed on \(template.path); allowed: \(methods.joined(separator: ", "))"))
                answer.headers[.allow] = methods.joined(separator: ", ")
                return answer
            }
            return APIError(WireError(.unknownRoute, "No route \(request.method) \(path)"))
        }
        let code: WireError.Code =
            switch error.status {
            case .contentTooLarge: .requestTooLarge
            case .unsupportedMediaType: .unsupportedMediaType
            case .unauthorized: .invalidToken
            case .forbidden: .forbidden
            case .methodNotAllowed: .methodNotAllowed
            case .requestHeaderFieldsTooLarge: .headersTooLarge
            default: error.status.code >= 500 ? .internalError : .badRequest
            }
        // The status follows the code, so that a body's code and its status never disagree.
        return APIError(WireError(code, code == .requestTooLarge ? code.defaultMessage : error.body ?? error.status.reasonPhrase))
    }
}

/// A route's path with `{name}` captures, to tell a known path from an unknown one.
struct RouteTemplate: Hashable, Sendable {
    let path: String

    func matches(_ candidate: String) -> Bool {
        let a = path.split(separator: "/", omittingEmptySubsequences: true)
        let b = candidate.split(separator: "/", omittingEmptySubsequences: true)
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { template, actual in template.hasPrefix("{") || template == actual }
    }
}
