#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>

namespace LockScope {

class JsonWriter;

// One lock as the JSON object of conventions.md (lockscope-cli list --json, show --json), written as text: a listing
// of a million locks is written one lock at a time without building a QJsonObject for each. nowMs (epoch ms) turns
// deadlines into what is left of them.
void writeLockJson(JsonWriter &writer, const LockInfo &lock, qint64 nowMs);
QByteArray lockJsonText(const LockInfo &lock, qint64 nowMs);

} // namespace LockScope
