/**
 * The part of the `reliability_guard` LiveCodeBench and EvalPlus share (as NeMo Gym runs both), as Python lines for
 * a function body: destructive os/shutil/subprocess functions disabled, a few modules made unimportable. Kept for
 * parity (it decides which programs pass); the sandbox is what keeps the machine safe.
 */
export const DISABLE_DESTRUCTIVE_PY = String.raw`    os.environ["OMP_NUM_THREADS"] = "1"
    for name in ["kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown", "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir"]:
        setattr(os, name, None)
    shutil.rmtree = shutil.move = shutil.chown = None
    subprocess.Popen = None
    builtins.help = None
    for name in ["ipdb", "joblib", "resource", "psutil", "tkinter"]:
        sys.modules[name] = None`;
