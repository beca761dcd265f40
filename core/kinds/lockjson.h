#pragma once

#include "kinds/holderfacts.h"
#include "kinds/lockclassifier.h"

#include <QByteArray>

namespace LockScope {

class JsonWriter;

// One lock as the JSON object of conventions.md (lockscope-cli list --json, show --json), written as text: a listing
// of a million locks is written one lock at a time without building a QJsonObject for each. nowMs (epoch ms) turns
// deadlines into what is left of them.
// facts, where given, adds each holder's renewals, liveness verdict and connection (conventions.md, "Holders,
// liveness and blockers").
void writeLockJson(JsonWriter &writer, const LockInfo &lock, qint64 nowMs, const HolderFactsSource &facts = {});
QByteArray lockJsonText(const LockInfo &lock, qint64 nowMs, const HolderFactsSource &facts = {});

} // namespace LockScope
