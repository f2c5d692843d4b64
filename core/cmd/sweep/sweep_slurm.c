/* sweep_slurm.c - the sbatch script of a sweep, and its submission. */
#define _POSIX_C_SOURCE 200809L

#include "cmd/sweep/sweep_slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "util/msg_escape.h"

extern char **environ;

unsigned sweep_slurm_tasks(const sweep_spec *s, size_t n_points)
{
    size_t want = s->slurm.tasks ? s->slurm.tasks : 100;
    return (unsigned)(want < n_points ? want : n_points ? n_points : 1);
}

/* A shell word in single quotes: any path is safe in the script. */
static void shell_word(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

int sweep_slurm_write(const sweep_spec *s, size_t n_points, const char *exe, const char *spec, const char *out,
                      const char *script, char *err, size_t len)
{
    const sweep_slurm *sl = &s->slurm;
    unsigned tasks = sweep_slurm_tasks(s, n_points);
    FILE *f = fopen(script, "w");
    if (!f) {
        snprintf(err, len, "%s: cannot write: %s", script, strerror(errno));
        return -1;
    }
    fprintf(f, "#!/bin/sh\n# Written by vimana sweep --slurm: %zu points in %u array tasks.\n"
               "#SBATCH --job-name=vimana-sweep\n#SBATCH --array=0-%u",
            n_points, tasks, tasks - 1);
    if (sl->concurrent)
        fprintf(f, "%%%u", sl->concurrent);
    fprintf(f, "\n#SBATCH --cpus-per-task=%u\n", sl->cpus ? sl->cpus : 1);
    if (sl->time)
        fprintf(f, "#SBATCH --time=%s\n", sl->time);
    if (sl->memory)
        fprintf(f, "#SBATCH --mem=%s\n", sl->memory);
    if (sl->partition)
        fprintf(f, "#SBATCH --partition=%s\n", sl->partition);
    /* #SBATCH lines cannot be quoted: a path with a space or a quote
     * gets the output beside the script by sbatch's default. */
    if (!strpbrk(out, " \t'\"\\%\n"))
        fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", out);
    fputs("exec ", f);
    shell_word(f, exe);
    fputs(" sweep ", f);
    shell_word(f, spec);
    fputs(" --out ", f);
    shell_word(f, out);
    fprintf(f, " --batch \"$SLURM_ARRAY_TASK_ID/%u\" --jobs %u --no-progress\n", tasks, sl->cpus ? sl->cpus : 1);
    if (fclose(f) != 0) {
        snprintf(err, len, "%s: cannot write: %s", script, strerror(errno));
        return -1;
    }
    return 0;
}

/* The first line of path, or "". */
static void first_line(const char *path, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        if (fgets(out, (int)len, f))
            out[strcspn(out, "\r\n")] = '\0';
        fclose(f);
    }
}

int sweep_slurm_submit(const char *script, const char *out_dir, char *id, size_t id_len, char *err, size_t len)
{
    char out_path[4096], err_path[4096], line[512], shown[512];
    snprintf(out_path, sizeof out_path, "%s/sbatch.out", out_dir);
    snprintf(err_path, sizeof err_path, "%s/sbatch.err", out_dir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {"sbatch", "--parsable", (char *)script, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "sbatch", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        snprintf(err, len, "cannot run sbatch: %s (is Slurm installed? the script is %s)", strerror(rc), script);
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        first_line(err_path, line, sizeof line);
        snprintf(err, len, "sbatch failed: %s", line[0] ? msg_escape(line, shown, sizeof shown) : "no message");
        return -1;
    }
    first_line(out_path, line, sizeof line);
    /* --parsable prints "jobid" or "jobid;cluster". */
    line[strcspn(line, ";")] = '\0';
    msg_escape(line, id, id_len);
    return 0;
}
