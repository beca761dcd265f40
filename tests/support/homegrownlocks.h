#pragma once

// A home-grown lock scheme as a team writes it, for the reaper's tests (tst_reap, tst_consolereclaim):
// "ADDED:<run>@<host>,<epoch s>,pid=<pid>" under P:lock:*, with no TTL, and a heartbeat key P:hb:<run> that its owner
// rewrites while it works. Its owner template makes a holder's liveness a matter of one reading: its process on this
// host and its heartbeat's age. Include only from test executables.
#include "rawredis.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

namespace LockScope::Test {

// A pid no process has: the highest a Linux kernel hands out is below 2^22.
constexpr qint64 kGonePid = 4194999;

// The owner template of p's home-grown locks (--owner-template's GLOB=SPEC, OwnerTemplate::parse's text).
inline QByteArray homeGrownTemplate(const QByteArray &p)
{
    return p + ":lock:*=heartbeat=" + p
        + ":hb:{owner},heartbeat-age=300,regex:^ADDED:(?<owner>[^@]+)@(?<host>[^,]+),(?<since>\\d+),pid=(?<pid>\\d+)$";
}

// A home-grown hold taken an hour ago by run on this host: dead (its process gone, its heartbeat an hour old) or
// alive (this very process, its heartbeat just written). Either is judged in one reading. Its name.
inline QByteArray homeGrown(
    RawRedis &raw, const QByteArray &p, const QByteArray &lock, const QByteArray &run, bool dead)
{
    const QByteArray name = p + ":lock:" + lock;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QByteArray value = "ADDED:" + run + '@' + QSysInfo::machineHostName().toUtf8() + ','
        + QByteArray::number(now - 3600)
        + ",pid=" + QByteArray::number(dead ? kGonePid : QCoreApplication::applicationPid());
    raw.command({ "SET", name, value });
    raw.command({ "SET", p + ":hb:" + run, QByteArray::number(dead ? now - 3600 : now) });
    return name;
}

// A reap policy named name with one rule, dead-imports, over p's home-grown locks: no TTL, held over a minute, likely
// dead at the reading; extra: more top-level keys ("max_per_run: 2\n").
inline QByteArray homeGrownPolicy(const QByteArray &p, const QByteArray &name, const QByteArray &extra = {})
{
    return "name: " + name + "\n" + extra + "rules:\n  - name: dead-imports\n    pattern: \"" + p
        + ":lock:*\"\n    kind: string\n    ttl: none\n    min_age: 1m\n    verdict_for: 0s\n";
}

} // namespace LockScope::Test
