#pragma once

#include "redis/rediscommander.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFrame>

#include <functional>

class QLabel;

namespace LockScope {

// The header over the locks: the server (its URL, never with a password), how the console reaches it, whether it is
// read-only, the connection's state with what happens next, and the connection's colour tag. It shows what it is
// told. Its texts keep the translation context of MainWindow, which built the header itself before.
class ConnectionHeader : public QFrame
{
    Q_OBJECT
public:
    enum class State { Starting, Connected, Disconnected, Failed };

    explicit ConnectionHeader(QWidget *parent = nullptr);

    // At least the height its wrapped lines take at its width: a window whose dock grows squeezes the central widget
    // to its minimum, and with a one-line minimum the header kept its lines and pushed the table under the dock.
    QSize minimumSizeHint() const override;

    void setConnection(const QString &displayUrl, const QString &description, bool readOnly);
    // As MainWindow::setConnectionState.
    void setState(State state, const QString &detail, int retryMs);
    // The state line, as shown.
    QString stateText() const;
    // The first line of the last state's detail: what went wrong, for the status bar.
    QString error() const { return m_error; }
    // Since when the connection is down; invalid while connected.
    QDateTime disconnectedSince() const { return m_disconnectedSince; }
    void setRetrySource(std::function<int()> source) { m_retrySource = std::move(source); }
    // On the window's repaint clock: the countdown to the next attempt.
    void tick();
    void setRoute(const QString &route, bool tunnelled, const QString &detail);
    QString route() const;
    void setNote(const QString &text);
    QString note() const;
    void setColourTag(const QColor &colour);
    // A production server: a red badge beside the URL, so nobody mistakes it for staging.
    void setProduction(bool production);
    bool production() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateStateLabel();

    QLabel *m_stateLabel;
    QLabel *m_urlLabel;
    QLabel *m_routeLabel;
    QLabel *m_readOnlyBadge;
    QLabel *m_productionBadge;
    QLabel *m_descriptionLabel;
    QLabel *m_noteLabel;
    State m_state = State::Starting;
    QString m_error;
    QDeadlineTimer m_retryAt { QDeadlineTimer::Forever };
    bool m_retryKnown = false;
    std::function<int()> m_retrySource;
    QDateTime m_disconnectedSince; // invalid while connected: the rows are as last read since then
};

} // namespace LockScope
