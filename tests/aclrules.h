#pragma once

#include <QStringList>

namespace LockScope::Test {

// The least-privilege users README.md documents ("Least privilege"), kept word for word. The cluster subcommands
// read the slot map; ASKING follows a slot that is being migrated; READONLY lets a monitor read from replicas; SELECT
// (in the console's @connection) lets the monitor watch a database other than 0. CLIENT LIST (in @dangerous) tells
// whether a lock holder's connections are still there. MONITOR, which a trace needs, is left out: it is granted on
// purpose, by those who run traces.
inline const QStringList kConsoleRules { QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@read"),
    QStringLiteral("+@write"), QStringLiteral("+@scripting"), QStringLiteral("+@pubsub"),
    QStringLiteral("+@connection"), QStringLiteral("-@dangerous"), QStringLiteral("+info"),
    QStringLiteral("+config|get"), QStringLiteral("+cluster|shards"), QStringLiteral("+cluster|slots"),
    QStringLiteral("+client|list") };
inline const QStringList kMonitorRules { QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@read"),
    QStringLiteral("+@pubsub"), QStringLiteral("+ping"), QStringLiteral("+info"), QStringLiteral("+config|get"),
    QStringLiteral("+cluster|shards"), QStringLiteral("+cluster|slots"), QStringLiteral("+asking"),
    QStringLiteral("+readonly"), QStringLiteral("+select"), QStringLiteral("+client|list"), QStringLiteral("-@write") };

} // namespace LockScope::Test
