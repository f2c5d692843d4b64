/* `vimana-et convert text|pytorch ...`: picks the converter by input kind.
 * The reference spells the kinds "Text" and "PyTorch"; both spellings work. */
#include <stdio.h>
#include <strings.h>

#include "vimana-et/commands.h"

int cmd_convert(int argc, char **argv)
{
    if (argc < 2 || strcasecmp(argv[1], "--help") == 0 || strcasecmp(argv[1], "-h") == 0) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out,
                "Usage: vimana-et convert text --input FILE --output PREFIX --num-npus N --num-passes P\n"
                "       vimana-et convert pytorch --input ET_PLUS.json --output FILE.et [--simulate]\n"
                "Run `vimana-et convert text --help` or `... pytorch --help` for details.\n");
        return argc < 2 ? 2 : 0;
    }
    if (strcasecmp(argv[1], "text") == 0)
        return cmd_convert_text(argc - 1, argv + 1);
    if (strcasecmp(argv[1], "pytorch") == 0)
        return cmd_convert_pytorch(argc - 1, argv + 1);
    fprintf(stderr, "vimana-et convert: unknown input kind '%s' (expected text or pytorch)\n", argv[1]);
    return 2;
}
