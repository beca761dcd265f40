#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace LockScope::Guide {

// The Lua the guided demo sends. Each is LockScope's own text with the *effect* of one Redisson method in the
// versions named: the same KEYS and ARGV, the same redis.call()s in the same order on every branch, the same reply
// and the same messages (docs/guide.md). Unlike LockScope's production scripts they carry no kind check: what
// MONITOR shows them running is exactly what Redisson's script would run.
enum class ScriptId {
    Acquire, // tryLockInnerAsync, Redisson 3.19.0 to 4.x
    Unlock4, // unlockInnerAsync with the unlock latch, 3.24.0 to 4.x
    Unlock322, // 3.22 to 3.23: the publish command is an argument
    Unlock3, // 3.10.6 to 3.21.x: the owner is checked first
    Unlock2, // up to 3.10.5 and the 2.x line: an absent lock "unlocks" and publishes
    Renew1, // one lock's renewal, up to 3.43
    RenewBatch, // the batched renewal of 3.44+ and 4.x: one script for all of a client's locks
    ForceUnlock, // forceUnlockAsync
};

// Which Redisson's unlock a guided client plays (--script-version).
enum class UnlockEffect { V4, V322, V321, V2 };

struct GuideScript
{
    ScriptId id;
    QByteArray name; // the id in the wire log and JSON: "acquire", "unlock-4", ...
    QByteArray source;
    QString versions; // "Redisson 3.24.0 to 4.x"
};

const GuideScript &script(ScriptId id);
ScriptId unlockScript(UnlockEffect effect);
// "4", "3.22", "3.21", "3.10.5" as --script-version takes them.
bool parseUnlockEffect(const QString &text, UnlockEffect *effect);
QString unlockEffectText(UnlockEffect effect);
// Recognises a guided script by its text (as MONITOR shows it), or returns nullptr.
const GuideScript *scriptBySource(const QByteArray &source);

} // namespace LockScope::Guide
