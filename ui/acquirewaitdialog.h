#pragma once

#include "kinds/locktypes.h"

#include <QElapsedTimer>
#include <QProgressDialog>
#include <QTimer>

namespace LockScope {

// The wait of an acquire that waits: how long it has waited, the limit (a busy bar when there is none), and Cancel,
// so that the person is never left guessing whether anything happens. Cancel only says so (canceled()); ending the
// wait is the caller's.
class AcquireWaitDialog : public QProgressDialog
{
    Q_OBJECT
public:
    AcquireWaitDialog(const AcquireRequest &request, QWidget *parent = nullptr);

private:
    void showWaited();

    AcquireRequest m_request;
    QString m_name; // as shown
    QElapsedTimer m_clock;
    QTimer m_timer;
};

} // namespace LockScope
