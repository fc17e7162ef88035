/*
 * cmd_render - the `regc render` sub-command: render any JSON data with a
 * template, to debug templates or to use regc's engine on other data.
 *
 *   regc render TEMPLATE DATA.json [-I DIR]... [-o FILE] [--strict] [--escape=KIND]
 *
 * The output is exactly the rendered text. Exit status: 0 success, 1 errors in
 * the template or the data (diagnostics on stderr), 2 usage, 3 I/O (a template,
 * partial or data file cannot be read, or the output cannot be written).
 */
#ifndef REGC_CMD_RENDER_H
#define REGC_CMD_RENDER_H

/*
 * Runs the sub-command and returns the exit status. 'argv' is main's argv with
 * argv[1] == "render", or starts at "render" itself (argv[0] == "render").
 */
int cmd_render(int argc, char **argv);

#endif
