#!/usr/bin/env python3
"""What an app sees when it imports ChatSDK and ChatSDKNetwork (issue 14).

Type-checks two small apps against the built modules (`swift build` first):
one that uses the SDK as the README shows must compile, and so must the
Swift blocks of docs/integration.md (the integration guide) and the example
app Examples/DiagnosticsStory; in one that names
the wire format (every public type of ChatCore), the package's seams
(every package type of ChatSDK and ChatSDKNetwork) or a few package
members, every line must fail. Then no public declaration of the SDK, and
no import of it, hands an app a ChatCore type.

    scripts/app_surface_check.py [BIN_PATH]   # default: swift build --show-bin-path
"""
import pathlib
import platform
import re
import subprocess
import sys
import tempfile

from checks import check, finish

ROOT = pathlib.Path(__file__).resolve().parent.parent

APP = """\
import ChatSDK
import ChatSDKNetwork
import Foundation

struct Provider: SessionTokenProvider {
    func provideTokens(forUserId userId: String) async throws -> ChatTokens {
        ChatTokens(accessToken: "access-1", accessExpiresAt: Date(), refreshToken: "refresh-1", refreshExpiresAt: Date())
    }
}

func app() async throws {
    var configuration = ChatClient.Configuration(
        apiKey: "demo-key", transport: .http(baseURL: "http://127.0.0.1:8080"), runtime: .realTime())
    configuration.cacheMode = .memory
    let client = ChatClient(configuration: configuration, tokenProvider: Provider())
    try await client.setCurrentUser(userId: "alice")
    let conversation = try await client.startConversation(title: "Hello")
    let sent = try await client.sendMessage(.attachment(kind: .image, mimeType: "image/png", size: 1, fileName: nil), in: conversation.id)
    let _: Date = sent.createdAt
    if case .provider(let name) = sent.author { print(name) }
    for try await response in client.watchItems(ofConversationWithId: conversation.id) {
        for message in response.data.elements { print(message.preview, message.state) }
    }
    do { try await client.retrySending(itemId: sent.id) } catch ChatError.offline {}
}
"""

# Members that are the package's, reached from what an app holds.
MEMBERS = [
    "func m1(_ c: ChatClient.Configuration) { _ = c.transport }",
    "func m2(_ c: ChatClient.Configuration) { _ = c.runtime }",
    "func m3(_ t: ChatClient.Transport) { _ = t.base }",
    "func m4(_ r: ChatClient.Runtime) { _ = r.base }",
    "let m5 = Duration.seconds(1).wholeMilliseconds",
]


def top_level_types(folder, level):
    pattern = re.compile(rf"^{level} (?:final )?(?:struct|enum|protocol|class|actor|typealias) (\w+)", re.M)
    names = set()
    for path in (ROOT / "Sources" / folder).rglob("*.swift"):
        names.update(pattern.findall(path.read_text()))
    return sorted(names)


def swiftc_arguments(bin_path):
    arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", str(bin_path / "Modules")]
    # The C modules the SDK's dependencies bring: the maps SwiftPM wrote and
    # those the packages ship, with their headers.
    maps = {p for p in bin_path.glob("*.build/module.modulemap")}
    maps |= {p for p in (ROOT / ".build" / "checkouts").glob("*/Sources/**/module.modulemap")}
    for path in sorted(maps):
        arguments += ["-Xcc", f"-fmodule-map-file={path}"]
    for path in sorted((ROOT / ".build" / "checkouts").glob("*/Sources/*/include")):
        arguments += ["-Xcc", f"-I{path}"]
    if platform.system() == "Darwin":
        sdk = subprocess.run(["xcrun", "--show-sdk-path"], capture_output=True, text=True).stdout.strip()
        arguments += ["-sdk", sdk, "-target", f"{platform.machine()}-apple-macosx15.0"]
    return arguments


def typecheck(arguments, source, folder):
    path = pathlib.Path(folder) / "App.swift"
    path.write_text(source)
    result = subprocess.run(arguments + [str(path)], capture_output=True, text=True)
    errors = {}
    for line in (result.stdout + result.stderr).splitlines():
        match = re.match(rf"^{re.escape(str(path))}:(\d+):\d+: error: (.*)", line)
        if match:
            errors.setdefault(int(match.group(1)), []).append(match.group(2))
    return result.returncode, errors, result.stderr


bin_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(
    subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip())
check("the SDK is built", (bin_path / "Modules" / "ChatSDK.swiftmodule").exists(), f"nothing in {bin_path}/Modules: swift build first")
arguments = swiftc_arguments(bin_path)

# ChatCore is shared by the package's modules: its types are all `package`.
wire = top_level_types("ChatCore", "package")
seams = sorted(set(top_level_types("ChatSDK", "package") + top_level_types("ChatSDKNetwork", "package")))
check("ChatCore's types are found", len(wire) > 20, f"{wire}")
check("ChatCore has no public type", not top_level_types("ChatCore", "public"), f"{top_level_types('ChatCore', 'public')}")
check("the SDK's package types are found", {"ChatTransport", "HTTPTransport"} <= set(seams), f"{seams}")

with tempfile.TemporaryDirectory() as folder:
    status, errors, stderr = typecheck(arguments, APP, folder)
    check("an app written against the public API compiles", status == 0 and not errors, stderr[-2000:])

    header = "import ChatSDK\nimport ChatSDKNetwork\n"
    lines = [f"let t{index}: {name}? = nil" for index, name in enumerate(wire + seams)] + MEMBERS
    status, errors, stderr = typecheck(arguments, header + "\n".join(lines) + "\n", folder)
    # Refused as unknown or inaccessible, not for another reason (a generic
    # type used without its argument would fail even if it were visible).
    hidden = re.compile(r"cannot find .* in scope|inaccessible due to|not imported")
    for number, line in enumerate(lines, 3):
        reasons = errors.get(number, [])
        check(f"an app cannot write `{line}`", any(hidden.search(r) for r in reasons), "; ".join(reasons) or "it compiles")
    # Benchmarks/ is a package of its own that CI cannot build (package-benchmark
    # is not fetched there): its fixtures, which drive the world and the SDK,
    # must type-check against the public API alone.
    benchmarks = (ROOT / "Benchmarks" / "Benchmarks" / "ChatBenchmarks" / "ChatBenchmarks.swift").read_text()
    fixtures = benchmarks[benchmarks.index("// MARK: Fixtures"):]
    imports = [line for line in benchmarks[: benchmarks.index("// MARK: Fixtures")].splitlines() if line.startswith("import ")]
    imports = [line for line in imports if line != "import Benchmark"]
    source = "\n".join(imports) + "\nfunc blackHole<T>(_ value: T) {}\n" + fixtures
    status, errors, stderr = typecheck(arguments + ["-parse-as-library"], source, folder)
    check("Benchmarks/' fixtures type-check against the public API", status == 0 and not errors, stderr[-2000:])
    # docs/integration.md's Swift blocks, together, as an app and its tests
    # would write them: imports first, then every block.
    guide = (ROOT / "docs" / "integration.md").read_text()
    blocks = re.findall(r"^```swift\n(.*?)^```", guide, re.M | re.S)
    lines = [line for block in blocks for line in block.splitlines()]
    imports = sorted({line for line in lines if line.startswith("import ")})
    source = "\n".join(imports + [line for line in lines if not line.startswith("import ")]) + "\n"
    status, errors, stderr = typecheck(arguments + ["-parse-as-library"], source, folder)
    check(f"docs/integration.md's {len(blocks)} Swift blocks compile", len(blocks) >= 6 and status == 0 and not errors, stderr[-2000:])
    # The example app of issue 27 §5 is a target of this package, where the
    # package's own declarations are visible: alone, it must type-check
    # against the public API.
    story = pathlib.Path(folder) / "main.swift"
    story.write_text((ROOT / "Examples" / "DiagnosticsStory" / "main.swift").read_text())
    result = subprocess.run(arguments + [str(story)], capture_output=True, text=True)
    check("Examples/DiagnosticsStory type-checks against the public API", result.returncode == 0, result.stderr[-2000:])
finish("app surface")
