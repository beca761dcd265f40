// The main window's messages and help: the status bar's results of actions, cut at a word when too long, and the
// Help menu's windows (issue 47). Beside mainwindow.cpp, which builds the window and wires it.
#include "helpwindow.h"
#include "mainwindow.h"

#include <QFontMetrics>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace LockScope {

void MainWindow::showMessage(const QString &text, bool error)
{
    showStatus(error ? QStringLiteral("⚠ ") + text : text, error ? 15000 : 6000);
}

void MainWindow::showStatus(const QString &text, int timeoutMs)
{
    // The status bar clips a message that is too long wherever the pixels run out, mid-word (issue 47): it is cut at
    // the last whole word that fits, with an ellipsis, and the whole of it is the status bar's tooltip.
    int room = statusBar()->width() - 24;
    for (const QWidget *w : statusBar()->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
        if (w->isVisible() && w->x() > 0)
            room = qMin(room, w->x() - 12);
    const QFontMetrics metrics = statusBar()->fontMetrics();
    QString shown = text;
    if (room > 0 && metrics.horizontalAdvance(text) > room) {
        shown = metrics.elidedText(text, Qt::ElideRight, room);
        shown.chop(1); // the ellipsis elidedText put where the pixels ran out
        const qsizetype space = shown.lastIndexOf(QLatin1Char(' '));
        if (space > 0)
            shown.truncate(space);
        shown += QStringLiteral("…");
    }
    m_statusFull = text;
    statusBar()->setToolTip(shown == text ? QString() : text);
    statusBar()->showMessage(shown, timeoutMs);
}

QString MainWindow::statusMessage() const
{
    return statusBar()->currentMessage().isEmpty() ? QString() : m_statusFull;
}

void MainWindow::showHelp(HelpWindow *window)
{
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
}

QString MainWindow::shortcutsText() const
{
    // Made from the actions themselves, so the list is what the keys do in this window, in this language.
    QString text = tr("| Key | Does |\n|---|---|\n");
    for (QAction *menuAction : menuBar()->actions()) {
        const QMenu *menu = menuAction->menu();
        if (!menu)
            continue;
        for (const QAction *action : menu->actions()) {
            if (action->shortcut().isEmpty())
                continue;
            QString what = action->text();
            what.remove(QLatin1Char('&'));
            text += QStringLiteral("| %1 | %2 › %3 |\n")
                        .arg(action->shortcut().toString(QKeySequence::NativeText),
                            menu->title().remove(QLatin1Char('&')), what.remove(QStringLiteral("…")));
        }
    }
    text
        += tr("\nIn a dialog that changes something (force release, a permit, a latch), Return and Enter press Cancel; "
              "only a click, or Tab to the button and Space, acts. No such button has an Alt+letter.\n");
    return text;
}

} // namespace LockScope
