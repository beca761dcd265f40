#include "connectionheader.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

// The texts keep the context they were translated under when MainWindow built this header itself.

namespace LockScope {

ConnectionHeader::ConnectionHeader(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("connectionHeader"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette palette = this->palette();
    palette.setColor(QPalette::Window, palette.color(QPalette::Base));
    setPalette(palette);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(4);
    auto *top = new QHBoxLayout;
    top->setSpacing(10);
    m_stateLabel = new QLabel(this);
    m_urlLabel = new QLabel(this);
    QFont urlFont = m_urlLabel->font();
    urlFont.setBold(true);
    urlFont.setPointSizeF(urlFont.pointSizeF() * 1.15);
    m_urlLabel->setFont(urlFont);
    m_urlLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readOnlyBadge = new QLabel(QCoreApplication::translate("LockScope::MainWindow", "read-only"), this);
    m_readOnlyBadge->setStyleSheet(QStringLiteral(
        "QLabel { color: white; background: #6a1b9a; border-radius: 4px; padding: 1px 6px; font-weight: bold; }"));
    m_readOnlyBadge->hide();
    m_productionBadge = new QLabel(QCoreApplication::translate("LockScope::MainWindow", "PRODUCTION"), this);
    m_productionBadge->setStyleSheet(QStringLiteral(
        "QLabel { color: white; background: #c62828; border-radius: 4px; padding: 1px 6px; font-weight: bold; }"));
    m_productionBadge->hide();
    m_routeLabel = new QLabel(this);
    m_routeLabel->setAccessibleName(QCoreApplication::translate("LockScope::MainWindow", "Connected through"));
    m_routeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_routeLabel->hide();
    top->addWidget(m_stateLabel);
    top->addWidget(m_urlLabel);
    top->addWidget(m_routeLabel);
    top->addWidget(m_productionBadge);
    top->addWidget(m_readOnlyBadge);
    top->addStretch(1);
    layout->addLayout(top);

    m_descriptionLabel = new QLabel(this);
    m_descriptionLabel->setWordWrap(true);
    layout->addWidget(m_descriptionLabel);
    m_noteLabel = new QLabel(this);
    m_noteLabel->setWordWrap(true);
    m_noteLabel->setStyleSheet(QStringLiteral("QLabel { color: #5f6368; }"));
    m_noteLabel->hide();
    layout->addWidget(m_noteLabel);
}

QSize ConnectionHeader::minimumSizeHint() const
{
    QSize size = QFrame::minimumSizeHint();
    if (width() > 0 && hasHeightForWidth())
        size.setHeight(qMax(size.height(), heightForWidth(width())));
    return size;
}

void ConnectionHeader::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    // Another width wraps the lines anew: the minimum above changes with it.
    if (event->oldSize().width() != event->size().width())
        updateGeometry();
}

void ConnectionHeader::setConnection(const QString &displayUrl, const QString &description, bool readOnly)
{
    m_urlLabel->setText(displayUrl);
    m_descriptionLabel->setText(description);
    m_readOnlyBadge->setVisible(readOnly);
}

void ConnectionHeader::setRoute(const QString &route, bool tunnelled, const QString &detail)
{
    m_routeLabel->setText(route);
    m_routeLabel->setToolTip(detail);
    // A tunnel stands out: the URL it shows (127.0.0.1, say) means that address as the SSH host sees it.
    m_routeLabel->setStyleSheet(tunnelled
            ? QStringLiteral("QLabel { color: white; background: #00695c; border-radius: 4px; padding: 1px 6px; "
                             "font-weight: bold; }")
            : QStringLiteral("QLabel { color: #5f6368; }"));
    m_routeLabel->setVisible(!route.isEmpty());
}

QString ConnectionHeader::route() const
{
    return m_routeLabel->text();
}

void ConnectionHeader::setState(State state, const QString &detail, int retryMs)
{
    m_state = state;
    m_error = detail.section(QLatin1Char('\n'), 0, 0);
    m_retryAt = retryMs >= 0 ? QDeadlineTimer(retryMs) : QDeadlineTimer(QDeadlineTimer::Forever);
    m_retryKnown = retryMs != RedisCommander::RetryUnknown;
    if (state == State::Disconnected || state == State::Failed) {
        if (!m_disconnectedSince.isValid())
            m_disconnectedSince = QDateTime::currentDateTime();
    } else if (state == State::Connected) {
        m_disconnectedSince = {};
    }
    updateStateLabel();
    m_stateLabel->setToolTip(detail);
}

QString ConnectionHeader::stateText() const
{
    return m_stateLabel->text();
}

void ConnectionHeader::tick()
{
    if (m_state == State::Disconnected && !m_retryAt.isForever())
        updateStateLabel(); // the countdown to the next attempt
}

void ConnectionHeader::updateStateLabel()
{
    QString text;
    QString color;
    switch (m_state) {
    case State::Starting:
        text = QCoreApplication::translate("LockScope::MainWindow", "connecting…");
        color = QStringLiteral("#ef6c00");
        break;
    case State::Connected:
        text = QCoreApplication::translate("LockScope::MainWindow", "connected");
        color = QStringLiteral("#2e7d32");
        break;
    case State::Disconnected:
        // The countdown ran out while still disconnected: the connection has set its next attempt since.
        if (m_retryKnown && !m_retryAt.isForever() && m_retryAt.hasExpired() && m_retrySource) {
            const int next = m_retrySource();
            if (next >= 0)
                m_retryAt = QDeadlineTimer(next);
            else if (next == RedisCommander::NoRetry)
                m_retryAt = QDeadlineTimer(QDeadlineTimer::Forever);
        }
        // What went wrong, and what happens next: a countdown to the next attempt, or that none will be made.
        if (!m_retryKnown)
            text = QCoreApplication::translate("LockScope::MainWindow", "disconnected: %1; reconnecting").arg(m_error);
        else if (m_retryAt.isForever())
            text = QCoreApplication::translate("LockScope::MainWindow", "disconnected: %1; not retrying").arg(m_error);
        else if (m_retryAt.hasExpired())
            text = QCoreApplication::translate("LockScope::MainWindow", "disconnected: %1; reconnecting now")
                       .arg(m_error);
        else
            text = QCoreApplication::translate("LockScope::MainWindow", "disconnected: %1; retrying in %2 s")
                       .arg(m_error)
                       .arg((m_retryAt.remainingTime() + 999) / 1000);
        color = m_retryAt.isForever() && m_retryKnown ? QStringLiteral("#c62828") : QStringLiteral("#ef6c00");
        break;
    case State::Failed:
        text = m_error.isEmpty()
            ? QCoreApplication::translate("LockScope::MainWindow", "failed: not retrying")
            : QCoreApplication::translate("LockScope::MainWindow", "failed: %1; not retrying").arg(m_error);
        color = QStringLiteral("#c62828");
        break;
    }
    m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">●</span> %2").arg(color, text.toHtmlEscaped()));
}

QString ConnectionHeader::note() const
{
    return m_noteLabel->text();
}

void ConnectionHeader::setNote(const QString &text)
{
    m_noteLabel->setText(text);
    m_noteLabel->setVisible(!text.isEmpty());
}

void ConnectionHeader::setProduction(bool production)
{
    m_productionBadge->setVisible(production);
}

bool ConnectionHeader::production() const
{
    return !m_productionBadge->isHidden();
}

void ConnectionHeader::setColourTag(const QColor &colour)
{
    setStyleSheet(colour.isValid()
            ? QStringLiteral("QFrame#connectionHeader { border-left: 6px solid %1; }").arg(colour.name())
            : QString());
}

} // namespace LockScope
