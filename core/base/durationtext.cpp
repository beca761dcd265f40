#include "base/durationtext.h"

#include <QCoreApplication>

namespace LockScope {

QString durationText(qint64 ms)
{
    // The context LockTexts translates under (its Q_DECLARE_TR_FUNCTIONS): its translations stay.
    if (ms < 0)
        return QCoreApplication::translate("LockScope::LockTableModel", "none");
    if (ms < 60000)
        return QCoreApplication::translate("LockScope::LockTableModel", "%1 s").arg(ms / 1000.0, 0, 'f', 1);
    if (ms < 3600000)
        return QCoreApplication::translate("LockScope::LockTableModel", "%1 min %2 s")
            .arg(ms / 60000)
            .arg((ms / 1000) % 60);
    return QCoreApplication::translate("LockScope::LockTableModel", "%1 h %2 min")
        .arg(ms / 3600000)
        .arg((ms / 60000) % 60);
}

} // namespace LockScope
