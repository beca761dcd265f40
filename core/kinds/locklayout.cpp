#include "kinds/locklayout.h"

#include <QCoreApplication>

namespace LockScope {

QList<LockMode> LockLayout::actionModes() const
{
    QList<LockMode> kinds;
    for (const AcquireMode &m : modes())
        kinds << m.kind;
    return kinds;
}

QString LockLayout::counterSummary(const LockInfo &info) const
{
    const QString counter = info.counter < 0 ? QString() : counterText(info.counter);
    if (counter.isEmpty() || info.holders.isEmpty())
        return counter;
    return QCoreApplication::translate("LockScope::LockLayout", "%n permit(s) taken", nullptr, int(info.holders.size()))
        + QStringLiteral(", ") + counter;
}

} // namespace LockScope
