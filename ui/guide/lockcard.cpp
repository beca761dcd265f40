#include "guide/lockcard.h"

#include "guide/guidepalette.h"
#include "guide/guidestage.h"
#include "guide/guidetext.h"

#include <QPainter>

namespace LockScope::Guide {

LockCard::LockCard(const GuideStage *stage, QWidget *parent)
    : QWidget(parent)
    , m_stage(stage)
{
    setAccessibleName(tr("Lock card"));
}

void LockCard::setNow(qint64 nowMs)
{
    m_nowMs = nowMs;
    update();
}

QSize LockCard::sizeHint() const
{
    return { fontMetrics().averageCharWidth() * 70, fontMetrics().height() * 9 };
}

QSize LockCard::minimumSizeHint() const
{
    return { fontMetrics().averageCharWidth() * 40, fontMetrics().height() * 8 };
}

QStringList LockCard::rows(int index) const
{
    const GuideStage::Card &card = m_stage->cards().at(index);
    QStringList out;
    if (!card.state.exists())
        return out;
    if (card.state.type != "hash")
        return { shortOwner(card.state.value) };
    for (const auto &[field, value] : card.state.fields) {
        QString alias = shortOwner(field);
        for (const GuideStage::Lane &l : m_stage->lanes()) {
            if (l.owner == field)
                alias = QString::fromUtf8(l.alias) + QStringLiteral("  ") + shortOwner(field);
        }
        out << QStringLiteral("%1  →  %2").arg(alias, QString::fromUtf8(value));
    }
    return out;
}

QString LockCard::countText(int index) const
{
    // A reentrant lock counts levels; a string lock (G01's SET NX) has none, and a 0 would say it is not held.
    const GuideStage::Card &card = m_stage->cards().at(index);
    if (card.state.type != "hash")
        return {};
    int total = 0; // the sum of the fields: one owner at a time for a lock
    for (const auto &f : card.state.fields)
        total += f.second.toInt();
    return QString::number(total);
}

void LockCard::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const auto &cards = m_stage->cards();
    if (cards.isEmpty())
        return;
    const int gap = fontMetrics().averageCharWidth();
    const int width = (this->width() - gap * int(cards.size() - 1)) / int(cards.size());
    for (int i = 0; i < cards.size(); ++i)
        paintCard(painter, QRect(i * (width + gap), 0, width, height() - 1), i);
}

void LockCard::paintCard(QPainter &painter, const QRect &box, int index)
{
    const GuideStage::Card &card = m_stage->cards().at(index);
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const int pad = fm.averageCharWidth();
    painter.setPen(palette().color(QPalette::Mid));
    painter.setBrush(palette().color(QPalette::Base));
    painter.drawRoundedRect(box.adjusted(0, 0, -1, 0), 6, 6);
    const QRect inner = box.adjusted(pad, pad / 2, -pad, -pad / 2);

    // Title: the key and its type.
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(palette().color(QPalette::Text));
    const QString type = card.state.exists() ? QString::fromUtf8(card.state.type).toUpper() : tr("no key");
    painter.drawText(QRect(inner.left(), inner.top(), inner.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
        QStringLiteral("%1   %2").arg(QString::fromUtf8(card.name), type));
    painter.setFont(font());

    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 3.2);
    big.setBold(true);
    const int bigWidth = QFontMetrics(big).horizontalAdvance(QStringLiteral("00"));
    const QRect countBox(inner.right() - bigWidth, inner.top() + line, bigWidth, line * 3);

    // Fields: owner → count, in the owner's colour.
    int y = inner.top() + line + line / 4;
    const QStringList rows = this->rows(index);
    for (int i = 0; i < rows.size(); ++i) {
        QByteArray client;
        if (card.state.type == "hash") {
            for (const GuideStage::Lane &l : m_stage->lanes()) {
                if (l.owner == card.state.fields.at(i).first)
                    client = l.client;
            }
        }
        painter.setPen(card.state.type == "hash" ? clientColor(client) : palette().color(QPalette::Text));
        painter.drawText(
            QRect(inner.left(), y, inner.width() - bigWidth - pad, line), Qt::AlignLeft | Qt::AlignVCenter, rows.at(i));
        y += line;
    }
    if (const QString count = countText(index); !count.isEmpty()) {
        painter.setFont(big);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(countBox, Qt::AlignRight | Qt::AlignVCenter, count);
        painter.setFont(font());
    }

    // The TTL bar, or the tombstone.
    const int barTop = inner.bottom() - line * 3 - line / 4;
    const QRect bar(inner.left(), barTop, inner.width(), line);
    if (!card.state.exists()) {
        if (!card.gone.isEmpty()) {
            painter.setPen(goneColor());
            painter.setFont(bold);
            const QString who = card.holder.isEmpty() ? QString() : tr(" (held by %1)").arg(card.holder);
            painter.drawText(QRect(inner.left(), barTop, inner.width(), line * 2), Qt::AlignLeft | Qt::AlignVCenter,
                tr("✝ %1 at +%2 s%3").arg(card.gone).arg(card.goneAtMs / 1000.0, 0, 'f', 1).arg(who));
            painter.setFont(font());
        }
        return;
    }
    const qint64 pttl = card.pttlAt(m_nowMs);
    painter.setPen(palette().color(QPalette::Mid));
    painter.setBrush(palette().color(QPalette::AlternateBase));
    painter.drawRect(bar);
    if (pttl >= 0 && card.leaseMs > 0) {
        const double fraction = qBound(0.0, double(pttl) / double(card.leaseMs), 1.0);
        painter.setBrush(card.watchdog ? watchdogColor() : fixedLeaseColor());
        painter.setPen(Qt::NoPen);
        painter.drawRect(QRectF(bar.left() + 1, bar.top() + 1, (bar.width() - 1) * fraction, bar.height() - 1));
    }
    // Ticks at 1/3 and 2/3 of the lease: a watchdog renews when a third has drained, at the 2/3 mark.
    painter.setPen(QPen(palette().color(QPalette::Text), 2));
    for (double t : { 1.0 / 3, 2.0 / 3 }) {
        const int x = bar.left() + int(bar.width() * t);
        painter.drawLine(x, bar.top() - 3, x, bar.bottom() + 3);
    }
    painter.setPen(palette().color(QPalette::Text));
    const QString ttl = pttl == -1
        ? tr("no TTL: nothing will ever free it")
        : tr("PTTL %1 s of %2 s").arg(pttl / 1000.0, 0, 'f', 1).arg(card.leaseMs / 1000.0, 0, 'f', 1);
    QString jump;
    if (!card.jump.isEmpty())
        jump = tr("%1 at +%2 s").arg(card.jump).arg(card.jumpAtMs / 1000.0, 0, 'f', 1);
    // The jump's cause on a line of its own when both do not fit beside each other (two cards, large type).
    const bool beside = fm.horizontalAdvance(ttl) + fm.horizontalAdvance(jump) + pad * 2 < inner.width();
    painter.drawText(QRect(inner.left(), bar.bottom() + 2, inner.width(), line), Qt::AlignLeft | Qt::AlignVCenter, ttl);
    painter.drawText(QRect(inner.left(), bar.bottom() + 2 + (beside ? 0 : line), inner.width(), line),
        (beside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
        fm.elidedText(jump, Qt::ElideRight, inner.width()));
}

} // namespace LockScope::Guide
