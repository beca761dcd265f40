#include "acquirewaitdialog.h"

#include "redis/bytesformat.h"

#include <QCoreApplication>

// The texts keep the context they were translated under when ConsoleActions built this dialog itself.

namespace LockScope {

AcquireWaitDialog::AcquireWaitDialog(const AcquireRequest &request, QWidget *parent)
    : QProgressDialog(parent)
    , m_request(request)
    , m_name(escapeBytes(request.name, 200))
{
    setWindowTitle(QCoreApplication::translate("LockScope::ConsoleActions", "Acquire a lock"));
    setAttribute(Qt::WA_DeleteOnClose);
    setMinimumDuration(0);
    setAutoClose(false);
    setAutoReset(false);
    // Waiting forever has no end to measure: a busy bar.
    setRange(0, request.waitMs > 0 ? int(request.waitMs) : 0);
    m_clock.start();
    connect(&m_timer, &QTimer::timeout, this, &AcquireWaitDialog::showWaited);
    showWaited();
    m_timer.start(200);
}

void AcquireWaitDialog::showWaited()
{
    const qint64 waited = m_clock.elapsed();
    setLabelText(m_request.waitMs > 0
            ? QCoreApplication::translate("LockScope::ConsoleActions", "Waiting for %1: %2 s of at most %3 s")
                  .arg(m_name)
                  .arg(waited / 1000)
                  .arg((m_request.waitMs + 999) / 1000)
            : QCoreApplication::translate("LockScope::ConsoleActions", "Waiting for %1 until it is free: %2 s so far")
                  .arg(m_name)
                  .arg(waited / 1000));
    if (m_request.waitMs > 0)
        setValue(int(qMin(waited, m_request.waitMs)));
}

} // namespace LockScope
