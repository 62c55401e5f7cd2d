// The wire values (tokens, instants, runtime protocol) are part of the SDK's
// public vocabulary: an app imports ChatSDK alone.
@_exported import ChatCore
