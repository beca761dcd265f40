#pragma once

class QDialog;

namespace LockScope::ConfirmGuard {

// Where focus starts: on cancel, or where the dialog puts it (the value a QInputDialog asks for).
enum class Focus { Cancel, Input };

// Makes a dialog that deletes or changes something in Redis act only on a deliberate click (or Space) on the button
// that does it: Return and Enter, whatever has focus, only ever press cancel. Qt makes every push button of a dialog
// autoDefault, and a focused autoDefault button becomes the default, so Return clicks it whatever setDefault() said:
// the confirming button had focus when the force release dialog opened, and Return deleted the lock (issue 32). So no
// button here is autoDefault, cancel (the button box's reject button) is the one default, which Return in a line
// edit, spin box or combo box (they pass Return on to the dialog) presses too, and focus starts on cancel unless the
// dialog asks for a value. No button but cancel keeps a mnemonic: Alt+F pressed the force release (issue 47). Applied
// again whenever the dialog is shown: QInputDialog builds its buttons late.
void install(QDialog *dialog, Focus focus = Focus::Cancel);

} // namespace LockScope::ConfirmGuard
