#pragma once

#include "guide/guiderecord.h"
#include "guide/scenario.h"

#include <QString>

namespace LockScope::Guide {

// How the guided demo words its records, shared by the console's window and the CLI.
QByteArray actionName(Step::Action action); // "lock", "tryLock", "unlock", ...
QString eventText(ActorEvent event, qint64 ms); // "woken by a message after 1997 ms"
QString replyText(const RedisValue &reply); // "nil", "5000", "[1, 0]", "OK"
QString stateText(const KeyState &state); // "HASH {ff16…:1=1} pttl 5991", "absent"
// An owner field shortened for a line: the client id's first block, an ellipsis, the thread ("ff161e99…:1").
QString shortOwner(const QByteArray &owner);
// KEYS or ARGV for a line: "guided:myLock, ff161e99…:1" (owner fields shortened).
QString argsText(const QList<QByteArray> &args);
// A command or script call on one line: "EVAL acquire  KEYS=[guided:myLock]  ARGV=[6000, ff161e99…:1]".
QString callText(const GuideRecord &record);

} // namespace LockScope::Guide
