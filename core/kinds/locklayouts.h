#pragma once

#include "kinds/locklayout.h"

#include <QStringList>
#include <QStringView>

#include <optional>

namespace LockScope::LockLayouts {

// Every layout LockScope knows, in the order front-ends list them. A new layout is one folder of kinds/ and one
// line in locklayouts.cpp: the CLI's --kind, the acquire dialog, the JSON kind names and the lock client follow.
const QList<const LockLayout *> &all();
// The layout the classifier calls kind; nullptr for what is no lock or not a known one.
const LockLayout *forKind(LockInfo::Kind kind);
// The layout to treat a lock of kind as: its own, or for a lock hash no layout claims (Unknown), the reentrant lock's,
// the shape such a hash most often has (its release channel, its waiters).
const LockLayout &forRecord(LockInfo::Kind kind);
// The kinds a kind filter offers: every layout's, then Unknown.
QList<LockInfo::Kind> listedKinds();
// The kind column's word for kind, translated ("read-write", "unknown"); empty for what is no lock.
QString kindText(LockInfo::Kind kind);
// The same for a kind given by its JSON name ("reentrant", "readwrite"); a name no kind has is shown as it is.
QString kindText(const QByteArray &kindName);
// A read-write lock's mode ("read", "write") in the Mode column's words, translated; other modes as they are.
QString modeText(const QByteArray &mode);
// Where a monitor hears the releases of a lock hash read so far (its fields, before its aux keys): the channel of the
// layout its fields alone point to.
QByteArray hashReleaseChannel(const KeySnapshot &snapshot);
// Every distinct SCAN cursor the layouts need over scope, in the registry's order.
QList<ScanCursor> scanCursors(const DiscoveryScope &scope);
// Whether some layout's lock may live on under name with no key of its own (LockRecogniser::mayOutliveItsKey).
bool mayOutliveItsKey(const QByteArray &name);
// The layout that takes a lock of mode, and its actions (every layout a mode or action kind names has them).
const LockLayout &forMode(LockMode mode);
const LockActions &actionsFor(LockMode mode);
// The mode a release of owner's hold runs as on a lock of layout (LockActions::releaseMode, else its action kind).
LockMode releaseMode(const LockLayout &layout, const QByteArray &owner);
// The kind a lock of layout shows as while idle (LockRecogniser::idleKind, else its own).
LockInfo::Kind idleKind(const LockLayout &layout);
// The script of a counter action, from the layout whose own action it is (CounterWrites::counterCall); none when no
// layout runs it.
std::optional<CounterCall> counterCall(const CounterRequest &request, const QByteArray &publish);
// Every acquire mode, layout by layout ("reentrant", "fenced", "fair", "read", "write", "string").
QList<AcquireMode> modes();
AcquireMode mode(LockMode kind);
// "a read lock": what a refusal says the caller tried to take, translated.
QString wantedText(LockMode kind);
// The mode a --kind word names; false when none does.
bool modeById(QStringView id, AcquireMode *found);
// Every mode's --kind word, in modes()' order: what the CLI offers and lists.
QStringList modeIds();

} // namespace LockScope::LockLayouts
