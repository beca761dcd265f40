#pragma once

#include "clients/tracefindings.h"
#include "redis/connectionoptions.h"

#include <QString>

#include <optional>

namespace LockScope {

// A trace's findings kept between the CLI's runs, one file per server: `lockscope-cli trace` saves them, and the
// commands that show holders read them back to name each holder's connection. A JSON file under the user's cache
// (<GenericCacheLocation>/lockscope/traces/<sha256 of the server's audit target>.json), readable by its owner only
// (0600), written whole or not at all. Identities, keys and names are arbitrary bytes: they are stored escaped as
// escapeBytes() writes them, which unescapeBytes() reads back to the same bytes.
namespace TraceStore {

constexpr qint64 defaultMaxAgeMs = 24LL * 60 * 60 * 1000;

// Where the findings of the server these options name are kept.
QString path(const ConnectionOptions &options);
// Replaces what was kept for that server. false, with *error saying why, when the file could not be written.
bool save(const ConnectionOptions &options, const TraceFindings &findings, QString *error = nullptr);
// What was kept for that server, if a trace ended there less than maxAgeMs ago. A file that is missing, does not
// parse or is not a trace's gives nothing: never a crash, never half a trace.
std::optional<TraceFindings> load(const ConnectionOptions &options, qint64 maxAgeMs = defaultMaxAgeMs);

// The findings as the file holds them, and back (for tests and tools).
QByteArray toJson(const TraceFindings &findings, const QString &target);
std::optional<TraceFindings> fromJson(const QByteArray &json);

} // namespace TraceStore

} // namespace LockScope
