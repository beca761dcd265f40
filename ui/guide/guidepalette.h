#pragma once

#include <QByteArray>
#include <QColor>

namespace LockScope::Guide {

// The guided demo's colours: one per client, so a field, a lane and a wire row of the same client match; the lease
// bar's as the console's TTL column draws them (green kept by a watchdog, blue a fixed lease, red gone).
inline QColor clientColor(const QByteArray &client)
{
    switch (client.isEmpty() ? 'A' : client.at(0)) {
    case 'A':
        return QColor(0x15, 0x65, 0xc0);
    case 'B':
        return QColor(0xe6, 0x51, 0x00);
    case 'C':
        return QColor(0x6a, 0x1b, 0x9a);
    default:
        return QColor(0x54, 0x6e, 0x7a);
    }
}
inline QColor watchdogColor()
{
    return QColor(0x2e, 0x7d, 0x32);
}
inline QColor fixedLeaseColor()
{
    return QColor(0x15, 0x65, 0xc0);
}
inline QColor goneColor()
{
    return QColor(0xc6, 0x28, 0x28);
}

} // namespace LockScope::Guide
