#include <stdio.h>
#include <histedit.h>
#include <editline/readline.h>

/*
 * Setters and getters for libedit's readline-compatible globals.
 *
 * Swift 6 refuses to touch mutable C globals ("not concurrency-safe"); these
 * inline functions give the executable a plain function call instead. They
 * are only called from the main thread, around and inside readline().
 */

static inline void chatbench_rl_set_readline_name(const char *name) {
    rl_readline_name = name;
}

static inline void chatbench_rl_set_attempted_completion_function(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

static inline void chatbench_rl_set_attempted_completion_over(int over) {
    rl_attempted_completion_over = over;
}

static inline void chatbench_rl_set_completion_append_character(int character) {
    rl_completion_append_character = character;
}

static inline void chatbench_rl_set_basic_word_break_characters(const char *characters) {
    rl_basic_word_break_characters = characters;
}

static inline const char *chatbench_rl_line_buffer(void) {
    return rl_line_buffer;
}
